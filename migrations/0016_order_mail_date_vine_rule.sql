DROP INDEX `orders_user_value_idx`;--> statement-breakpoint
DROP INDEX `orders_user_value_nulls_last_idx`;--> statement-breakpoint
ALTER TABLE `orders` ADD `mail_date` text;--> statement-breakpoint
CREATE INDEX `orders_user_currency_value_idx` ON `orders` (`user_id`,`currency`,"value_cents" DESC,"id" DESC);--> statement-breakpoint
CREATE INDEX `orders_user_currency_value_nulls_last_idx` ON `orders` (`user_id`,`currency`,"value_cents" IS NULL,`value_cents`);--> statement-breakpoint
ALTER TABLE `vine_settings` ADD `evaluation_start_time` text DEFAULT '00:00' NOT NULL;--> statement-breakpoint
ALTER TABLE `vine_settings` ADD `evaluation_end_time` text DEFAULT '23:59' NOT NULL;--> statement-breakpoint
ALTER TABLE `vine_settings` ADD `rate_rule` text DEFAULT '2025' NOT NULL;