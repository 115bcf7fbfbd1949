-- Phone numbers written without a country code take the centre's (ADR 031). India's until an admin
-- chooses another; numbers already stored are E.164 and stay as they are.
INSERT INTO settings (key, value) VALUES ('default_country_code', '+91') ON CONFLICT (key) DO NOTHING;
