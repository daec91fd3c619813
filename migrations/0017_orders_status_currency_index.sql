DROP INDEX `orders_user_status_value_idx`;--> statement-breakpoint
CREATE INDEX `orders_user_status_currency_value_idx` ON `orders` (`user_id`,`status`,`currency`,`value_cents`);