-- The absence and late alerts in each language a family may read (ADR 037): the default texts in
-- Hindi, Marathi, Tamil, Bengali and Urdu, beside the English one. The server fills {status}, {date}
-- and {class} in the text's own language. These are the texts docs/whatsapp.md gives centres to
-- submit to Meta, with the placeholders in the same order ({student_name}, {date}, {status}), so a
-- template already approved from that page takes its parameters in the order it expects.
--
-- A text the centre already wrote for a language is kept as it is (ON CONFLICT DO NOTHING). No
-- approved WhatsApp template name is set: whether a language was approved on Meta is the centre's to
-- say (Templates tab); until it does, WhatsApp carries the English template and English words, as
-- before, while the app shows the family's language.
INSERT INTO message_template_texts (template_id, language, body)
SELECT t.id, x.language, x.body
  FROM message_templates t
  CROSS JOIN (VALUES
    ('hi', '{student_name} को {date} को {status} दर्ज किया गया।'),
    ('mr', '{student_name} यांची {date} रोजी {status} अशी नोंद झाली.'),
    ('ta', '{student_name} {date} அன்று {status} எனப் பதிவு செய்யப்பட்டார்.'),
    ('bn', '{student_name} {date} তারিখে {status} হিসেবে চিহ্নিত হয়েছে।'),
    ('ur', '{student_name} کو {date} کو {status} درج کیا گیا۔')
  ) AS x (language, body)
 WHERE t.purpose IN ('absence_alert', 'late_alert')
ON CONFLICT (template_id, language) DO NOTHING;
