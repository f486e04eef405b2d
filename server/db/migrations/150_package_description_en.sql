-- Packages describe themselves in both languages, like their names: description (Chinese) and
-- description_en (English). The catalogue seeded before wrote both in one text, "中文 / English": split it.
ALTER TABLE packages ADD COLUMN description_en text NOT NULL DEFAULT '';
UPDATE packages
  SET description_en = btrim(substr(description, strpos(description, ' / ') + 3)),
      description = btrim(substr(description, 1, strpos(description, ' / ') - 1))
  WHERE strpos(description, ' / ') > 0;
