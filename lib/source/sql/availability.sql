-- Free slots starting in [:window_start, :window_end) — local wall times; a null bound is open.
select av.staff_id::text as staff_id,
       av.service_id::text as service_id,
       to_char(av.starts_at, 'YYYY-MM-DD HH24:MI:SS') as starts_at
from demo_source.availability_slots av
where av.source_key = :source_key
  and av.starts_at >= coalesce(:window_start::timestamp, '-infinity')
  and av.starts_at < coalesce(:window_end::timestamp, 'infinity')
order by av.id
