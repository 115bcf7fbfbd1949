-- The language each staff account reads the console in: one of the languages the product speaks, or
-- null while the account has not chosen (the console then follows the browser, else English).
ALTER TABLE users ADD COLUMN language text
  CONSTRAINT users_language_known CHECK (language IN ('en', 'hi', 'mr', 'ta', 'bn', 'ur'));
