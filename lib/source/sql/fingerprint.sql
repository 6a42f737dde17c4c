-- Changes whenever a row of this source key is added, removed or changed: per table the row count, the latest change
-- and the sum of every row's change time (or, where the system keeps no change time, the highest id, the time range
-- and a sum of row hashes). The sum is what sees a late commit: a transaction that began before the last read and
-- committed after it stamps its rows with a time earlier than the latest change, which then stays as it was.
select md5(concat_ws('|',
  (select count(*) || ':' || coalesce(max(updated_at)::text, '') || ':' || coalesce(sum(extract(epoch from updated_at)), 0) from demo_source.staff where source_key = :source_key),
  (select count(*) || ':' || coalesce(max(updated_at)::text, '') || ':' || coalesce(sum(extract(epoch from updated_at)), 0) || ':' || coalesce(max(deleted_at)::text, '') from demo_source.service_categories where source_key = :source_key),
  (select count(*) || ':' || coalesce(max(updated_at)::text, '') || ':' || coalesce(sum(extract(epoch from updated_at)), 0) from demo_source.services where source_key = :source_key),
  (select count(*) || ':' || coalesce(sum(hashtext(service_id || ':' || staff_id)), 0) from demo_source.service_staff where source_key = :source_key),
  (select count(*) || ':' || coalesce(max(updated_at)::text, '') || ':' || coalesce(sum(extract(epoch from updated_at)), 0) || ':' || coalesce(max(id), 0) from demo_source.customers where source_key = :source_key),
  (select count(*) || ':' || coalesce(max(updated_at)::text, '') || ':' || coalesce(sum(extract(epoch from updated_at)), 0) from demo_source.vehicles where source_key = :source_key),
  (select count(*) || ':' || coalesce(max(updated_at)::text, '') || ':' || coalesce(sum(extract(epoch from updated_at)), 0) from demo_source.appointments where source_key = :source_key),
  (select count(*) || ':' || coalesce(max(id), 0) || ':' || coalesce(min(starts_at)::text, '') || ':' || coalesce(max(starts_at)::text, '') || ':' || coalesce(sum(hashtext(concat_ws(':', id, staff_id, service_id, starts_at))), 0) from demo_source.availability_slots where source_key = :source_key)
)) as fingerprint
