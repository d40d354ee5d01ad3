-- Customers with lifetime value.
select
    c.customer_id,
    c.country,
    cast(c.signup_date as date) as signup_date,
    count(f.order_id) as orders,
    coalesce(sum(f.amount), 0) as lifetime_value
from {{ ref('stg_customers__customers') }} c
left join {{ ref('fct_orders') }} f on f.customer_id = c.customer_id
group by 1, 2, 3
