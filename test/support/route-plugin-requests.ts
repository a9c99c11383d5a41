// The request bodies Route's own store plugins send, byte for byte as PHP's json_encode writes them
// (ints, floats with their binary artefacts, numeric strings, "\/" escapes), built by hand from the
// plugins' public source:
//   WooCommerce "Route App" 2.2.21 (common-repository/routeapp): includes/class-routeapp-api-client.php,
//     public/class-routeapp-public.php (create_order_data_api, checkout_route_insurance_fee),
//     includes/tracking-providers/*, admin/class-routeapp-webhooks.php (generate_default_secret);
//   the PrestaShop module 1.0.8 (classes/RouteHelper.php buildRouteOrder / buildRouteShipment,
//     RouteOrder, RouteShipment, RouteQuote, RouteSetup);
//   the Magento 1 extension 1.1.3 (RouteImplementations/magento1: Model/Sales/Order.php getRouteObject,
//     Model/Sales/Order/Shipment.php, Model/Api/*).
// They are kept as text: re-serialising them in JavaScript would lose what is being tested.

/** WooCommerce: POST v2/quotes from the checkout fee hook (covered amount strval'd: no trailing zeros). */
export const wooQuote = (merchantId: string) =>
  `{"merchant_id":"${merchantId}","cart":{"cart_ref":"5040ce7273261e31d8bcf79f9be3d279","covered":{"currency":"USD","amount":"40"},"cart_items":[{"id":"22","quantity":2,"unit_price":"20"}]}}`;

/** WooCommerce: POST v2/orders from the daily reconcile cron (create_order_data_api). */
export const wooOrder = (orderId: number, quoteId: string) =>
  `{"quote_id":"${quoteId}","source_order_id":${orderId},"source_order_number":${orderId},"subtotal":40.0,"order_total":"45.98","shipping_total":"5","discounts_total":"0","source_created_on":"2024-01-15T09:30:00+00:00","source_updated_on":"2024-01-15T09:30:05+00:00","taxes":"0","insurance_selected":true,"customer_details":{"first_name":"Jane","last_name":"Doe","email":"jane@example.com","phone":"5555555555"},"shipping_details":{"first_name":"Jane","last_name":"Doe","street_address1":"969 Market St","street_address2":"","city":"San Francisco","province":"CA","zip":"94103","country_code":"US"},"line_items":[{"delivery_method":"ship_to_home","is_insured":true,"source_product_id":23,"source_id":"315","sku":"TEE-BLK-M","name":"Logo Tee","price":"20","quantity":2,"image_url":"https:\\/\\/shop.example.com\\/wp-content\\/uploads\\/2024\\/01\\/tee.jpg","upc":""}],"currency":"USD","amount_covered":40,"origin":"woocommerce-module","paid_to_insure":"0.98"}`;

/** WooCommerce: the same builder for an order with a digital item and no Route fee (no stored quote). */
export const wooOrderWithDigitalItem = (orderId: number) =>
  `{"quote_id":"Invalid","source_order_id":${orderId},"source_order_number":${orderId},"subtotal":59.5,"order_total":"64.50","shipping_total":"5","discounts_total":"0","source_created_on":"2024-01-16T12:00:00+00:00","source_updated_on":"2024-01-16T12:00:02+00:00","taxes":"0","insurance_selected":false,"customer_details":{"first_name":"Ana","last_name":"Silva","email":"ana@example.com","phone":""},"shipping_details":{"first_name":"Ana","last_name":"Silva","street_address1":"Av. Brasil, 432","street_address2":"","city":"Rio de Janeiro","province":"RJ","zip":"12345-000","country_code":"BR"},"line_items":[{"delivery_method":"ship_to_home","is_insured":true,"source_product_id":34,"source_id":"320","sku":"","name":"Woo Ninja","price":"49.5","quantity":1,"image_url":null,"upc":""},{"delivery_method":"digital","is_insured":false,"source_product_id":87,"source_id":"321","sku":"ALB-2","name":"Woo Album #2","price":"10","quantity":1,"image_url":null,"upc":""}],"currency":"USD","amount_covered":49.5,"origin":"woocommerce-module"}`;

/** WooCommerce: POST v1/shipments (tracking providers; source_product_ids repeated per unit, ints). */
export const wooShipment = (trackingNumber: string, orderId: number, courierId: string) =>
  `{"tracking_number":"${trackingNumber}","source_order_id":${orderId},"source_product_ids":[23,23],"courier_id":"${courierId}"}`;

/** WooCommerce: POST v1/shipments/{tn}?source_order_id= (update) and .../cancel bodies. */
export const wooShipmentUpdate = (orderId: number, courierId: string) => `{"source_order_id":${orderId},"source_product_ids":[23,23],"courier_id":"${courierId}"}`;
export const wooShipmentCancel = (orderId: number) => `{"source_order_id":${orderId},"source_product_ids":[23,23]}`;

/** WooCommerce's order.updated webhook: the REST v3 order, with the plugin's fee line and meta. */
export const wooWebhookOrder = (orderId: number, status: string) =>
  `{"id":${orderId},"parent_id":0,"status":"${status}","currency":"USD","version":"8.5.1","prices_include_tax":false,"date_created":"2024-01-15T01:30:00","date_modified":"2024-01-15T01:30:05","discount_total":"0.00","discount_tax":"0.00","shipping_total":"5.00","shipping_tax":"0.00","cart_tax":"0.00","total":"45.98","total_tax":"0.00","customer_id":0,"order_key":"wc_order_AbCdEf123456","billing":{"first_name":"Jane","last_name":"Doe","company":"","address_1":"969 Market St","address_2":"","city":"San Francisco","state":"CA","postcode":"94103","country":"US","email":"jane@example.com","phone":"5555555555"},"shipping":{"first_name":"Jane","last_name":"Doe","company":"","address_1":"969 Market St","address_2":"","city":"San Francisco","state":"CA","postcode":"94103","country":"US","phone":""},"payment_method":"cod","payment_method_title":"Cash on delivery","transaction_id":"","created_via":"checkout","customer_note":"","date_completed":null,"date_paid":null,"cart_hash":"5040ce7273261e31d8bcf79f9be3d279","number":"${orderId}","meta_data":[{"id":9002,"key":"_routeapp_included_order_statuses","value":"[\\"wc-processing\\",\\"wc-completed\\"]"},{"id":9003,"key":"_routeapp_cancel_order_statuses","value":"[\\"wc-cancelled\\",\\"wc-refunded\\"]"},{"id":9004,"key":"_routeapp_route_charge","value":"0.98"},{"id":9005,"key":"_routeapp_route_protection","value":"1"}],"line_items":[{"id":315,"name":"Logo Tee - Black, M","product_id":22,"variation_id":23,"quantity":2,"tax_class":"","subtotal":"40.00","subtotal_tax":"0.00","total":"40.00","total_tax":"0.00","taxes":[],"meta_data":[{"id":2103,"key":"_routeapp_source_product_id","value":"23","display_key":"_routeapp_source_product_id","display_value":"23"}],"sku":"TEE-BLK-M","price":20,"image":{"id":51,"src":"https:\\/\\/shop.example.com\\/wp-content\\/uploads\\/2024\\/01\\/tee.jpg"},"parent_name":"Logo Tee"},{"id":316,"name":"Gift card","product_id":87,"variation_id":0,"quantity":1,"tax_class":"","subtotal":"10.00","subtotal_tax":"0.00","total":"10.00","total_tax":"0.00","taxes":[],"meta_data":[{"id":2110,"key":"_routeapp_virtual","value":"1","display_key":"_routeapp_virtual","display_value":"1"}],"sku":"GIFT-10","price":10,"image":{"id":0,"src":""},"parent_name":null}],"tax_lines":[],"shipping_lines":[{"id":317,"method_title":"Flat rate","method_id":"flat_rate","instance_id":"1","total":"5.00","total_tax":"0.00","taxes":[],"meta_data":[]}],"fee_lines":[{"id":318,"name":"Route Shipping Protection","tax_class":"0","tax_status":"taxable","amount":"0.98","total":"0.98","total_tax":"0.00","taxes":[],"meta_data":[]}],"coupon_lines":[],"refunds":[],"date_created_gmt":"2024-01-15T09:30:00","date_modified_gmt":"2024-01-15T09:30:05","date_completed_gmt":null,"date_paid_gmt":null,"currency_symbol":"$","_links":{"self":[{"href":"https:\\/\\/shop.example.com\\/wp-json\\/wc\\/v3\\/orders\\/${orderId}"}]}}`;

/** PrestaShop 1.0.8 buildRouteOrder, PHP 7 types (DB columns as strings, taxes from float subtraction). */
export const prestaShopOrder = (reference: string) =>
  `{"source_order_id":"${reference}","source_order_number":12,"subtotal":"107.890000","taxes":6.269999999999996,"currency":"USD","insurance_selected":true,"customer_details":{"first_name":"John","last_name":"DOE","email":"pub@prestashop.com"},"shipping_details":{"first_name":"John","last_name":"DOE","street_address1":"16, Main street","street_address2":"","city":"Miami","province":"Florida","zip":"33133","country_code":"US"},"line_items":[{"source_product_id":"7","source_id":"15","sku":"demo_7","name":"Mug Caf\\u00e9","price":"11.900000","quantity":"2","image_url":"http:\\/\\/shop.example.com\\/img\\/p\\/8\\/8.jpg"}],"paid_to_insure":0.98,"source_created_on":"2026-11-20 22:03:11","source_updated_on":"2026-11-20 22:05:42"}`;

/** The same order under PHP 8.1 and later (INT columns arrive as ints). */
export const prestaShopOrderPhp81 = (reference: string) => prestaShopOrder(reference).replace('"source_product_id":"7"', '"source_product_id":7').replace('"quantity":"2"', '"quantity":2');

/** PrestaShop 1.0.8 buildRouteShipment: the carrier's display name as courier_id. */
export const prestaShopShipment = (trackingNumber: string, reference: string, carrier: string) =>
  `{"tracking_number":"${trackingNumber}","source_order_id":"${reference}","source_product_ids":["7"],"courier_id":"${carrier}","line_items":[{"source_id":"15","quantity":2}]}`;

/** Magento 1 getRouteObject: street lines as arrays in both fields, amount_covered from float subtraction. */
export const magentoOrder = (incrementId: string) =>
  `{"source_order_id":"${incrementId}","source_order_number":"12","source_created_on":"2020-07-20T15:04:05+00:00","source_updated_on":"2020-07-20T15:04:09+00:00","subtotal":154.01,"amount_covered":122.99999999999999,"currency":"USD","taxes":8.41,"insurance_selected":true,"customer_details":{"first_name":"Firstson","last_name":"Lastson","email":"email@test.com"},"shipping_details":{"first_name":"Firstson","last_name":"Lastson","street_address1":["66 Doctor Doe St","Ap 111"],"street_address2":["66 Doctor Doe St","Ap 111"],"city":"San Diego","province":"California","zip":"92122","country_code":"US"},"line_items":[{"delivery_method":"ship_to_home","is_insured":true,"source_product_id":"123","sku":"we-123","name":"Test Product","price":10,"quantity":3,"upc":"","image_url":"http:\\/\\/localhost\\/media\\/catalog\\/product\\/cache\\/1\\/image\\/x.jpg"},{"delivery_method":"digital","is_insured":false,"source_product_id":"124","sku":"gift-1","name":"Gift Card","price":31.01,"quantity":1,"upc":"","image_url":"http:\\/\\/localhost\\/media\\/catalog\\/product\\/placeholder\\/image.jpg"}]}`;

/** Magento 1 shipment builder: product ids repeated per shipped unit, as strings; the carrier code. */
export const magentoShipment = (incrementId: string, trackingNumber: string) =>
  `{"source_order_id":"${incrementId}","tracking_number":"${trackingNumber}","courier_id":"ups","source_product_ids":["123","123","123"]}`;
