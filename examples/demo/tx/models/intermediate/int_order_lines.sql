-- Order lines joined to their order and product.
select
    i.order_id,
    i.line,
    o.customer_id,
    cast(o.order_date as date) as order_date,
    o.status,
    o.channel,
    p.product_id,
    p.category,
    i.quantity,
    i.unit_price,
    i.quantity * i.unit_price as line_amount
from {{ ref('stg_order_items__order_items') }} i
join {{ ref('stg_orders__orders') }} o on o.order_id = i.order_id
join {{ ref('stg_products__products') }} p on p.product_id = i.product_id
