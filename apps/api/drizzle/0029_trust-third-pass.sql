-- The data keys whose ciphertexts the database holds, by key id (platform/key-rotation.ts): a server
-- whose DATA_KEY and DATA_KEY_PREVIOUS lack one of them refuses to start.
CREATE TABLE "data_keys" (
	"key_id" text PRIMARY KEY NOT NULL,
	"first_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_keys_key_id_check" CHECK ("key_id" ~ '^[0-9a-f]{8}$')
);
--> statement-breakpoint
-- What an existing database holds already: every key id its sealed values name.
INSERT INTO "data_keys" ("key_id")
SELECT DISTINCT "key_id" FROM (
  SELECT split_part("client_secret"::text, '.', 2) FROM "shaam_connections" WHERE "client_secret"::text LIKE 'v2.%'
  UNION SELECT split_part("access_token"::text, '.', 2) FROM "shaam_connections" WHERE "access_token"::text LIKE 'v2.%'
  UNION SELECT split_part("refresh_token"::text, '.', 2) FROM "shaam_connections" WHERE "refresh_token"::text LIKE 'v2.%'
  UNION SELECT split_part("access_token"::text, '.', 2) FROM "whatsapp_connections" WHERE "access_token"::text LIKE 'v2.%'
  UNION SELECT split_part("secret"::text, '.', 2) FROM "webhook_endpoints" WHERE "secret"::text LIKE 'v2.%'
  UNION SELECT split_part("previous_secret"::text, '.', 2) FROM "webhook_endpoints" WHERE "previous_secret"::text LIKE 'v2.%'
  UNION SELECT split_part("body"::text, '.', 2) FROM "webhook_deliveries" WHERE "body"::text LIKE 'v2.%'
  UNION SELECT split_part("init_data"::text, '.', 2) FROM "form_requests" WHERE "init_data"::text LIKE 'v2.%'
  UNION SELECT split_part("draft"::text, '.', 2) FROM "form_drafts" WHERE "draft"::text LIKE 'v2.%'
  UNION SELECT split_part("answers"::text, '.', 2) FROM "form_submissions" WHERE "answers"::text LIKE 'v2.%'
  UNION SELECT split_part("signatures"::text, '.', 2) FROM "form_submissions" WHERE "signatures"::text LIKE 'v2.%'
  UNION SELECT split_part("payload"::text, '.', 2) FROM "outbox" WHERE "payload"::text LIKE 'v2.%'
  UNION SELECT split_part("tranzila_secret"::text, '.', 2) FROM "clinics" WHERE "tranzila_secret"::text LIKE 'v2.%'
) AS "sealed" ("key_id")
WHERE "key_id" ~ '^[0-9a-f]{8}$'
ON CONFLICT DO NOTHING;
