DROP INDEX `orders_user_date_ordered_idx`;--> statement-breakpoint
CREATE INDEX `orders_user_ordered_idx` ON `orders` (`user_id`,`date_ordered`,`created_at`,`status`);