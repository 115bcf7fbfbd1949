-- An activity's text in every language (ADR 038): beside its English description, the code of its
-- text in the contract's activity catalogue and the params that fill it. Rows written before have
-- neither (null): clients show their stored English.
ALTER TABLE activities ADD COLUMN params jsonb;
ALTER TABLE activities ADD COLUMN text_code text;
