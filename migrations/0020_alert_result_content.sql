ALTER TABLE `alert_channels` ADD `paused_reason_content` text;--> statement-breakpoint
ALTER TABLE `alert_outbox` ADD `result_content` text;