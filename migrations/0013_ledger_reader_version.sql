ALTER TABLE `mail_stats` ADD `mailbox_reread_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `processed_messages` ADD `reader_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `processed_messages` ADD `unread` text;