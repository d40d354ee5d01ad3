-- One row per order with its customer's country and line totals.
select
    o.order_id,
    o.customer_id,
    c.country,
    cast(o.order_date as date) as order_date,
    o.status,
    o.channel,
    o.amount,
    count(l.line) as line_count
from {{ ref('stg_orders__orders') }} o
left join {{ ref('stg_customers__customers') }} c on c.customer_id = o.customer_id
left join {{ ref('int_order_lines') }} l on l.order_id = o.order_id
group by 1, 2, 3, 4, 5, 6, 7
