CREATE TABLE `notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`message` text NOT NULL,
	`level` text DEFAULT 'information' NOT NULL,
	`is_read` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notifications_user_idx` ON `notifications` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`amazon_order_number` text,
	`product_name` text NOT NULL,
	`product_url` text,
	`product_image` text,
	`asin` text,
	`ship_to_address` text,
	`estimated_retail_value` text,
	`value_cents` integer,
	`expected_delivery_date` text,
	`expected_delivery_date_text` text,
	`expected_delivery_estimated` integer DEFAULT false NOT NULL,
	`date_ordered` text,
	`date_delivered` text,
	`status` text DEFAULT 'Ordered' NOT NULL,
	`rating` integer,
	`review_subject` text,
	`review_text` text,
	`review_images` text DEFAULT '[]' NOT NULL,
	`review_reference` text,
	`date_review_submitted` text,
	`date_review_approved` text,
	`date_review_rejected` text,
	`tracking_number` text,
	`carrier` text,
	`delivery_details` text,
	`last_tracking_update` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `orders_user_created_idx` ON `orders` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_user_status_idx` ON `orders` (`user_id`,`status`);--> statement-breakpoint
CREATE INDEX `orders_user_number_idx` ON `orders` (`user_id`,`amazon_order_number`);--> statement-breakpoint
CREATE TABLE `reminders` (
	`order_id` integer NOT NULL,
	`kind` text NOT NULL,
	`sent_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`order_id`, `kind`),
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
