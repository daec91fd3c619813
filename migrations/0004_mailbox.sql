CREATE TABLE `mail_backfills` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`folder` text NOT NULL,
	`since_date` text NOT NULL,
	`done_through_uid` integer DEFAULT 0 NOT NULL,
	`uid_validity` integer,
	`status` text DEFAULT 'running' NOT NULL,
	`started_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `mail_folder_state` (
	`user_id` integer NOT NULL,
	`folder` text NOT NULL,
	`uid_validity` integer NOT NULL,
	`last_uid` integer DEFAULT 0 NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`user_id`, `folder`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `mail_stats` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`emails_scanned` integer DEFAULT 0 NOT NULL,
	`last_processed_time` text,
	`import_mode` text DEFAULT 'vine' NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `mailbox_accounts` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`provider` text DEFAULT 'gmail' NOT NULL,
	`auth_type` text NOT NULL,
	`email_address` text NOT NULL,
	`secret_enc` text,
	`auth_state` text DEFAULT 'ok' NOT NULL,
	`is_connected` integer DEFAULT true NOT NULL,
	`selected_folder` text DEFAULT 'INBOX' NOT NULL,
	`processed_folder` text,
	`mark_processed_as_read` integer DEFAULT false NOT NULL,
	`folders_json` text,
	`last_folder_refresh` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `oauth_states` (
	`state` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`code_verifier` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `processed_messages` (
	`user_id` integer NOT NULL,
	`message_key` text NOT NULL,
	`outcome` text NOT NULL,
	`reason` text,
	`kind` text,
	`orders_created` integer DEFAULT 0 NOT NULL,
	`orders_updated` integer DEFAULT 0 NOT NULL,
	`processed_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`user_id`, `message_key`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
