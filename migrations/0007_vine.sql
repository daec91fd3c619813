CREATE TABLE `vine_settings` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`tier` text NOT NULL,
	`rate_window_days` integer NOT NULL,
	`rate_minimum` integer NOT NULL,
	`evaluation_start` text,
	`evaluation_end` text,
	`gold_items` integer NOT NULL,
	`gold_percent` integer NOT NULL,
	`daily_limit_silver` integer NOT NULL,
	`daily_limit_gold` integer NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `orders` ADD `currency` text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `cant_review_reason` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `cant_review_note` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `review_exempt` integer DEFAULT false NOT NULL;