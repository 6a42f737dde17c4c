-- Customers as the front desk typed them. The id is the customer number, which is not unique
-- (a few customers were entered twice); rows come in the order they were created.
select c.customer_no as id,
       c.first_name,
       c.last_name,
       c.email,
       c.email_opt_in,
       c.sms_opt_in,
       c.street as address_line_1,
       c.address_extra as address_line_2,
       c.city,
       c.postal_code,
       c.phone,
       c.birthdate,
       c.gender,
       c.member,
       c.updated_at
from demo_source.customers c
where c.source_key = :source_key
order by c.id
