-- The menu of services, with the staff who provide each one.
select sv.id::text as id,
       sv.name,
       sv.description,
       sv.bookable,
       sv.price::text as price,
       sv.category_id::text as category_id,
       array(
         select ss.staff_id::text
         from demo_source.service_staff ss
         where ss.source_key = sv.source_key and ss.service_id = sv.id
         order by ss.staff_id
       ) as staff_ids,
       sv.position
from demo_source.services sv
where sv.source_key = :source_key
order by sv.id
