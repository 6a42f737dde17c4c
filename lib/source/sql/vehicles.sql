-- Customers' vehicles (automotive businesses).
select v.id::text as id,
       v.customer_no as customer_id,
       v.make,
       v.model,
       v.year,
       v.license_plate,
       v.vin,
       v.updated_at
from demo_source.vehicles v
where v.source_key = :source_key
order by v.id
