CREATE TABLE `review_settings` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`target_word_count` integer NOT NULL,
	`ai_editing_option` text NOT NULL,
	`tone_allocation` text NOT NULL,
	`auto_generate_subject` integer NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `users` ADD `tracking_update_time` text;--> statement-breakpoint
ALTER TABLE `users` ADD `tracking_last_run_at` text;