CREATE TABLE `alert_channels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`type` text NOT NULL,
	`name` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`events` text NOT NULL,
	`quiet_start` text,
	`quiet_end` text,
	`settings` text NOT NULL,
	`secret` text NOT NULL,
	`device_key` text,
	`failing_since` text,
	`paused_at` text,
	`paused_reason` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `alert_channels_user_idx` ON `alert_channels` (`user_id`);--> statement-breakpoint
CREATE INDEX `alert_channels_device_idx` ON `alert_channels` (`user_id`,`device_key`);--> statement-breakpoint
CREATE TABLE `alert_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel_id` integer NOT NULL,
	`event` text NOT NULL,
	`title` text NOT NULL,
	`message` text NOT NULL,
	`order_json` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`quiet` integer DEFAULT false NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`result` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`finished_at` text,
	FOREIGN KEY (`channel_id`) REFERENCES `alert_channels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `alert_outbox_due_idx` ON `alert_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `alert_outbox_channel_idx` ON `alert_outbox` (`channel_id`,`id`);--> statement-breakpoint
CREATE TABLE `server_keys` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
