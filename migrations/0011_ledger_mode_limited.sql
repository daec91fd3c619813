ALTER TABLE `processed_messages` ADD `mode_limited` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `processed_messages` ADD `mail_date` text;--> statement-breakpoint
UPDATE `processed_messages` SET `mode_limited` = 1 WHERE `reason` = 'not-vine';