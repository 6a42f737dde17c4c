-- Appointments starting in [:window_start, :window_end) — local wall times; a null bound is open.
-- An appointment without a start time is in no window.
select a.id::text as id,
       a.customer_no as customer_id,
       a.service_id::text as service_id,
       a.staff_id::text as staff_id,
       to_char(a.starts_at, 'YYYY-MM-DD HH24:MI:SS') as starts_at,
       to_char(a.ends_at, 'YYYY-MM-DD HH24:MI:SS') as ends_at,
       a.price::text as price,
       a.status,
       a.updated_at
from demo_source.appointments a
where a.source_key = :source_key
  and a.starts_at >= coalesce(:window_start::timestamp, '-infinity')
  and a.starts_at < coalesce(:window_end::timestamp, 'infinity')
order by a.id
