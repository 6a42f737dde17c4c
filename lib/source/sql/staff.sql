-- Staff members who provide services (→ calendars). Columns: StaffRow in lib/source/source-rows.ts.
select s.id::text as id,
       s.first_name,
       s.last_name,
       s.display_name
from demo_source.staff s
where s.source_key = :source_key
order by s.id
