-- Hand-written: Amazon mail the reader before versions took for "not an order
-- mail" may be order mail in a language it did not know (Spanish confirmations were lost so):
-- marked as not read for its kind, so that the next reader version reads it again.
UPDATE `processed_messages` SET `unread` = 'kind' WHERE `reason` = 'not-an-order-mail';
