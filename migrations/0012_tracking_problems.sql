CREATE TABLE `tracking_problems` (
	`order_id` integer PRIMARY KEY NOT NULL,
	`tracking_number` text NOT NULL,
	`not_found_checks` integer DEFAULT 0 NOT NULL,
	`notified` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
