-- Service categories still in use (a service may point at a deleted one: the mapping reports it).
select c.id::text as id,
       c.name,
       c.position
from demo_source.service_categories c
where c.source_key = :source_key
  and c.deleted_at is null
order by c.id
