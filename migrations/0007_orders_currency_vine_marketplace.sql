ALTER TABLE `orders` ADD `currency` text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `vine_marketplace` text;--> statement-breakpoint
-- Hand-written (issue 16): existing orders get the currency of their marketplace, told by the
-- Amazon host of their product link; USD when there is none or it is another host.
UPDATE `orders` SET `currency` = CASE
  WHEN lower(`product_url`) LIKE '%amazon.co.uk/%' THEN 'GBP'
  WHEN lower(`product_url`) LIKE '%amazon.de/%' THEN 'EUR'
  WHEN lower(`product_url`) LIKE '%amazon.fr/%' THEN 'EUR'
  WHEN lower(`product_url`) LIKE '%amazon.it/%' THEN 'EUR'
  WHEN lower(`product_url`) LIKE '%amazon.es/%' THEN 'EUR'
  WHEN lower(`product_url`) LIKE '%amazon.co.jp/%' THEN 'JPY'
  WHEN lower(`product_url`) LIKE '%amazon.ca/%' THEN 'CAD'
  WHEN lower(`product_url`) LIKE '%amazon.com.au/%' THEN 'AUD'
  ELSE 'USD'
END WHERE `product_url` IS NOT NULL;
