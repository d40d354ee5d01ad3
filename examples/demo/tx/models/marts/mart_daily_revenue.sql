-- Revenue per day and channel, excluding cancelled and refunded orders.
select
    order_date,
    channel,
    count(*) as orders,
    sum(amount) as revenue
from {{ ref('fct_orders') }}
where status not in ('cancelled', 'refunded')
group by 1, 2
