CREATE INDEX `orders_user_product_idx` ON `orders` (`user_id`,"product_name" COLLATE NOCASE);--> statement-breakpoint
CREATE INDEX `orders_user_value_idx` ON `orders` (`user_id`,`value_cents`);--> statement-breakpoint
CREATE INDEX `orders_user_value_nulls_last_idx` ON `orders` (`user_id`,"value_cents" IS NULL,`value_cents`);--> statement-breakpoint
CREATE INDEX `orders_user_status_value_idx` ON `orders` (`user_id`,`status`,`value_cents`);--> statement-breakpoint
CREATE INDEX `orders_user_date_ordered_idx` ON `orders` (`user_id`,`date_ordered`);--> statement-breakpoint
CREATE INDEX `orders_user_status_delivered_idx` ON `orders` (`user_id`,`status`,"date_delivered" IS NULL,`date_delivered`);--> statement-breakpoint
CREATE INDEX `orders_user_status_expected_idx` ON `orders` (`user_id`,`status`,CASE WHEN "expected_delivery_date" IS NULL THEN 2 WHEN "expected_delivery_estimated" THEN 1 ELSE 0 END,`expected_delivery_date`);--> statement-breakpoint
CREATE INDEX `orders_user_status_submitted_idx` ON `orders` (`user_id`,`status`,"date_review_submitted" IS NULL,`date_review_submitted`);--> statement-breakpoint
CREATE INDEX `orders_user_status_approved_idx` ON `orders` (`user_id`,`status`,`date_review_approved`);--> statement-breakpoint
CREATE INDEX `orders_user_status_rejected_idx` ON `orders` (`user_id`,`status`,"date_review_rejected" IS NULL,`date_review_rejected`);