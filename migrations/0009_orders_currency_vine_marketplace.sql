ALTER TABLE `users` ADD `vine_marketplace` text;--> statement-breakpoint
-- Hand-written: existing orders get the currency of their marketplace, told by the
-- Amazon host of their product link (amazon.co.uk or a subdomain of it…); USD otherwise.
UPDATE `orders` SET `currency` = (
  SELECT CASE
    WHEN host = 'amazon.co.uk' OR host LIKE '%.amazon.co.uk' THEN 'GBP'
    WHEN host = 'amazon.de' OR host LIKE '%.amazon.de' THEN 'EUR'
    WHEN host = 'amazon.fr' OR host LIKE '%.amazon.fr' THEN 'EUR'
    WHEN host = 'amazon.it' OR host LIKE '%.amazon.it' THEN 'EUR'
    WHEN host = 'amazon.es' OR host LIKE '%.amazon.es' THEN 'EUR'
    WHEN host = 'amazon.co.jp' OR host LIKE '%.amazon.co.jp' THEN 'JPY'
    WHEN host = 'amazon.ca' OR host LIKE '%.amazon.ca' THEN 'CAD'
    WHEN host = 'amazon.com.au' OR host LIKE '%.amazon.com.au' THEN 'AUD'
    ELSE 'USD'
  END
  FROM (
    SELECT CASE WHEN instr(rest, '/') > 0 THEN substr(rest, 1, instr(rest, '/') - 1) ELSE rest END AS host
    FROM (SELECT lower(substr(`product_url`, instr(`product_url`, '://') + 3)) AS rest)
  )
) WHERE `product_url` LIKE '%://%';
