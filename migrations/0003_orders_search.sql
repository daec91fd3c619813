-- Substring search over product names and order numbers (GET /api/orders?q=) without reading
-- every order: an FTS5 index of trigrams, kept in step with the orders table by triggers.
-- External content: the text lives only in `orders`; this table holds the index.
CREATE VIRTUAL TABLE `orders_search` USING fts5(
	`product_name`,
	`amazon_order_number`,
	content='orders',
	content_rowid='id',
	tokenize='trigram'
);
--> statement-breakpoint
INSERT INTO `orders_search` (`orders_search`) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `orders_search_insert` AFTER INSERT ON `orders` BEGIN
	INSERT INTO `orders_search` (`rowid`, `product_name`, `amazon_order_number`)
	VALUES (new.`id`, new.`product_name`, new.`amazon_order_number`);
END;
--> statement-breakpoint
CREATE TRIGGER `orders_search_delete` AFTER DELETE ON `orders` BEGIN
	INSERT INTO `orders_search` (`orders_search`, `rowid`, `product_name`, `amazon_order_number`)
	VALUES ('delete', old.`id`, old.`product_name`, old.`amazon_order_number`);
END;
--> statement-breakpoint
CREATE TRIGGER `orders_search_update` AFTER UPDATE OF `product_name`, `amazon_order_number` ON `orders` BEGIN
	INSERT INTO `orders_search` (`orders_search`, `rowid`, `product_name`, `amazon_order_number`)
	VALUES ('delete', old.`id`, old.`product_name`, old.`amazon_order_number`);
	INSERT INTO `orders_search` (`rowid`, `product_name`, `amazon_order_number`)
	VALUES (new.`id`, new.`product_name`, new.`amazon_order_number`);
END;
