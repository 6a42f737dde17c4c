-- Changes whenever a row of this source key is added, removed or changed: per table the row count
-- and the latest change (or, where the system keeps no change time, the highest id and time range).
select md5(concat_ws('|',
  (select count(*) || ':' || coalesce(max(updated_at)::text, '') from demo_source.staff where source_key = :source_key),
  (select count(*) || ':' || coalesce(max(updated_at)::text, '') || ':' || coalesce(max(deleted_at)::text, '') from demo_source.service_categories where source_key = :source_key),
  (select count(*) || ':' || coalesce(max(updated_at)::text, '') from demo_source.services where source_key = :source_key),
  (select count(*) || ':' || coalesce(sum(hashtext(service_id || ':' || staff_id)), 0) from demo_source.service_staff where source_key = :source_key),
  (select count(*) || ':' || coalesce(max(updated_at)::text, '') || ':' || coalesce(max(id), 0) from demo_source.customers where source_key = :source_key),
  (select count(*) || ':' || coalesce(max(updated_at)::text, '') from demo_source.vehicles where source_key = :source_key),
  (select count(*) || ':' || coalesce(max(updated_at)::text, '') from demo_source.appointments where source_key = :source_key),
  (select count(*) || ':' || coalesce(max(id), 0) || ':' || coalesce(min(starts_at)::text, '') || ':' || coalesce(max(starts_at)::text, '') from demo_source.availability_slots where source_key = :source_key)
)) as fingerprint
