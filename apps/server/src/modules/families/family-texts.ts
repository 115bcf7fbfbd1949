import type { ALERT_STATUSES, ParentLanguage } from '@tuitiondesk/contract';
import { readableDateIn } from '../../lib/time';

type AlertStatus = (typeof ALERT_STATUSES)[number];
export type LeaveDecision = 'approved' | 'declined';

/**
 * The words the server itself writes to a family, in each language the family may read (the words are
 * the glossary's, docs/i18n/glossary.md). English is exactly the product's English. What the centre
 * writes (a template's text, a notice, remarks, names) is never here: it is sent as written.
 */
export interface FamilyTexts {
  /** The status word an alert's {status} is filled with. */
  status: Record<AlertStatus, string>;
  /** A class as {class} is filled with: the class word, then the class as the centre stored it. */
  className: (name: string) => string;
  /** {class} for a notice to every class. */
  allClasses: string;
  /** After an alert's text, the teacher's remarks as written (with a leading space). */
  remarks: (remarks: string) => string;
  /** The alerts' subjects while the centre keeps the default ones ("Absence alert", "Late arrival"). */
  alertSubjects: { absence_alert: string; late_alert: string };
  /** The notice a family's devices show when its access to the parent app changed. */
  accessNoticeSubject: string;
  codeReplacedNotice: string;
  phoneChangedNotice: (childName: string) => string;
  /**
   * A leave request the centre decided, told in the parent app: its subject and its words; `from` and
   * `to` are days as the family reads them, `to` null for one day.
   */
  leaveDecided: {
    subject: Record<LeaveDecision, string>;
    notice: (decision: LeaveDecision, child: string, from: string, to: string | null) => string;
  };
  /** The WhatsApp reply confirming a family's START or STOP. */
  whatsappOn: (centreName: string) => string;
  whatsappOff: (centreName: string) => string;
}

const ENGLISH: FamilyTexts = {
  status: { absent: 'absent', late: 'late' },
  className: (name) => `Class ${name}`,
  allClasses: 'All classes',
  remarks: (remarks) => ` Remarks: ${remarks}`,
  alertSubjects: { absence_alert: 'Absence alert', late_alert: 'Late arrival' },
  accessNoticeSubject: 'Your TuitionDesk access was changed',
  codeReplacedNotice:
    'The centre issued a new access code for your family, and the devices signed in with the old one were signed out. If you did not ask for this, call the centre.',
  phoneChangedNotice: (child) =>
    `The centre changed the parent phone number on ${child}'s record, so this app no longer shows ${child}. If you did not ask for this, call the centre.`,
  leaveDecided: {
    subject: { approved: 'Leave approved', declined: 'Leave not approved' },
    notice: (decision, child, from, to) => {
      const span = to ? `from ${from} to ${to}` : `on ${from}`;
      return decision === 'approved'
        ? `The centre approved ${child}'s leave ${span}.`
        : `The centre did not approve ${child}'s leave ${span}. If you have any questions, please call the centre.`;
    },
  },
  whatsappOn: (centre) => `You will get WhatsApp messages from ${centre} again. Reply STOP to stop them.`,
  whatsappOff: (centre) =>
    `You will no longer get WhatsApp messages from ${centre}. Absence alerts and notices stay in the parent app. Reply START to get them again.`,
};

const TEXTS: Record<ParentLanguage, FamilyTexts> = {
  en: ENGLISH,
  hi: {
    status: { absent: 'अनुपस्थित', late: 'देरी से उपस्थित' },
    className: (name) => `कक्षा ${name}`,
    allClasses: 'सभी कक्षाएँ',
    remarks: (remarks) => ` टिप्पणी: ${remarks}`,
    alertSubjects: { absence_alert: 'अनुपस्थिति सूचना', late_alert: 'देरी से आगमन' },
    accessNoticeSubject: 'TuitionDesk में आपकी पहुँच बदली गई है',
    codeReplacedNotice:
      'केंद्र ने आपके परिवार के लिए नया एक्सेस कोड जारी किया है, और पुराने कोड से साइन इन किए गए डिवाइस साइन आउट कर दिए गए हैं। अगर आपने यह नहीं माँगा था, तो कृपया केंद्र को फ़ोन करें।',
    phoneChangedNotice: (child) =>
      `केंद्र ने ${child} के रिकॉर्ड में अभिभावक का फ़ोन नंबर बदल दिया है, इसलिए यह ऐप अब ${child} को नहीं दिखाता। अगर आपने यह नहीं माँगा था, तो कृपया केंद्र को फ़ोन करें।`,
    leaveDecided: {
      subject: { approved: 'छुट्टी स्वीकृत', declined: 'छुट्टी अस्वीकृत' },
      notice: (decision, child, from, to) => {
        const span = to ? `${from} से ${to} तक की` : `${from} की`;
        return decision === 'approved'
          ? `केंद्र ने ${child} की ${span} छुट्टी स्वीकृत कर दी है।`
          : `केंद्र ने ${child} की ${span} छुट्टी स्वीकृत नहीं की है। कोई प्रश्न हो तो कृपया केंद्र को फ़ोन करें।`;
      },
    },
    whatsappOn: (centre) => `आपको ${centre} से व्हाट्सऐप संदेश फिर से मिलेंगे। इन्हें बंद करने के लिए STOP लिखकर भेजें।`,
    whatsappOff: (centre) =>
      `अब आपको ${centre} से व्हाट्सऐप संदेश नहीं मिलेंगे। अनुपस्थिति की सूचनाएँ और केंद्र की सूचनाएँ अभिभावक ऐप में मिलती रहेंगी। इन्हें फिर से पाने के लिए START लिखकर भेजें।`,
  },
  mr: {
    status: { absent: 'गैरहजर', late: 'उशिरा हजर' },
    className: (name) => `इयत्ता ${name}`,
    allClasses: 'सर्व इयत्ता',
    remarks: (remarks) => ` शेरा: ${remarks}`,
    alertSubjects: { absence_alert: 'गैरहजेरीची सूचना', late_alert: 'उशिरा आगमन' },
    accessNoticeSubject: 'TuitionDesk मधील आपला प्रवेश बदलला आहे',
    codeReplacedNotice:
      'केंद्राने आपल्या कुटुंबासाठी नवीन ॲक्सेस कोड दिला आहे, आणि जुन्या कोडने साइन इन केलेली उपकरणे साइन आउट झाली आहेत. आपण याची विनंती केली नसेल, तर कृपया केंद्राला फोन करा.',
    phoneChangedNotice: (child) =>
      `केंद्राने ${child} यांच्या नोंदीतील पालकांचा फोन नंबर बदलला आहे, त्यामुळे हे ॲप आता ${child} यांची माहिती दाखवत नाही. आपण याची विनंती केली नसेल, तर कृपया केंद्राला फोन करा.`,
    leaveDecided: {
      subject: { approved: 'रजा मंजूर', declined: 'रजा नामंजूर' },
      notice: (decision, child, from, to) => {
        const span = to ? `${from} ते ${to} या कालावधीची` : `${from} रोजीची`;
        return decision === 'approved'
          ? `केंद्राने ${child} यांची ${span} रजा मंजूर केली आहे.`
          : `केंद्राने ${child} यांची ${span} रजा नामंजूर केली आहे. काही प्रश्न असल्यास कृपया केंद्राला फोन करा.`;
      },
    },
    whatsappOn: (centre) => `आपल्याला ${centre} कडून व्हॉट्सॲप संदेश पुन्हा मिळतील. ते बंद करण्यासाठी STOP असे उत्तर पाठवा.`,
    whatsappOff: (centre) =>
      `आता आपल्याला ${centre} कडून व्हॉट्सॲप संदेश मिळणार नाहीत. गैरहजेरीच्या सूचना आणि केंद्राच्या सूचना पालक ॲपमध्ये मिळत राहतील. ते पुन्हा मिळवण्यासाठी START असे उत्तर पाठवा.`,
  },
  ta: {
    status: { absent: 'வரவில்லை', late: 'தாமதம்' },
    className: (name) => `வகுப்பு ${name}`,
    allClasses: 'அனைத்து வகுப்புகள்',
    remarks: (remarks) => ` குறிப்பு: ${remarks}`,
    alertSubjects: { absence_alert: 'வருகையின்மை அறிவிப்பு', late_alert: 'தாமத வருகை' },
    accessNoticeSubject: 'உங்கள் TuitionDesk அணுகல் மாற்றப்பட்டது',
    codeReplacedNotice:
      'மையம் உங்கள் குடும்பத்துக்குப் புதிய அணுகல் குறியீட்டை வழங்கியுள்ளது; பழைய குறியீட்டுடன் உள்நுழைந்த சாதனங்கள் வெளியேற்றப்பட்டன. நீங்கள் இதைக் கேட்கவில்லை என்றால், மையத்தை அழைக்கவும்.',
    phoneChangedNotice: (child) =>
      `மையம் ${child} அவர்களின் பதிவில் உள்ள பெற்றோர் தொலைபேசி எண்ணை மாற்றியுள்ளது; எனவே இந்தச் செயலி இனி ${child} அவர்களைக் காட்டாது. நீங்கள் இதைக் கேட்கவில்லை என்றால், மையத்தை அழைக்கவும்.`,
    leaveDecided: {
      subject: { approved: 'விடுப்புக்கு ஒப்புதல்', declined: 'விடுப்பு நிராகரிக்கப்பட்டது' },
      notice: (decision, child, from, to) => {
        const span = to ? `${from} முதல் ${to} வரையிலான` : `${from} அன்றைய`;
        return decision === 'approved'
          ? `${child} அவர்களின் ${span} விடுப்புக்கு மையம் ஒப்புதல் அளித்துள்ளது.`
          : `${child} அவர்களின் ${span} விடுப்பு கோரிக்கையை மையம் நிராகரித்துள்ளது. ஏதேனும் கேள்விகள் இருந்தால், தயவுசெய்து மையத்தை அழைக்கவும்.`;
      },
    },
    whatsappOn: (centre) =>
      `${centre} இடமிருந்து வாட்ஸ்அப் செய்திகள் உங்களுக்கு மீண்டும் வரும். அவற்றை நிறுத்த STOP என்று பதில் அனுப்பவும்.`,
    whatsappOff: (centre) =>
      `இனி ${centre} இடமிருந்து வாட்ஸ்அப் செய்திகள் உங்களுக்கு வராது. வருகையின்மை அறிவிப்புகளும் மையத்தின் அறிவிப்புகளும் பெற்றோர் செயலியில் தொடர்ந்து வரும். மீண்டும் பெற START என்று பதில் அனுப்பவும்.`,
  },
  bn: {
    status: { absent: 'অনুপস্থিত', late: 'দেরিতে উপস্থিত' },
    className: (name) => `শ্রেণি ${name}`,
    allClasses: 'সব শ্রেণি',
    remarks: (remarks) => ` মন্তব্য: ${remarks}`,
    alertSubjects: { absence_alert: 'অনুপস্থিতির বার্তা', late_alert: 'দেরিতে আসা' },
    accessNoticeSubject: 'আপনার TuitionDesk অ্যাক্সেস বদলানো হয়েছে',
    codeReplacedNotice:
      'কেন্দ্র আপনার পরিবারের জন্য নতুন অ্যাক্সেস কোড দিয়েছে, আর পুরোনো কোড দিয়ে সাইন ইন করা ডিভাইসগুলো সাইন আউট করা হয়েছে। আপনি এটি না চেয়ে থাকলে কেন্দ্রে ফোন করুন।',
    phoneChangedNotice: (child) =>
      `কেন্দ্র ${child} নামের শিক্ষার্থীর রেকর্ডে অভিভাবকের ফোন নম্বর বদলেছে, তাই এই অ্যাপে আর তার তথ্য দেখা যাবে না। আপনি এটি না চেয়ে থাকলে কেন্দ্রে ফোন করুন।`,
    leaveDecided: {
      subject: { approved: 'ছুটি অনুমোদিত', declined: 'ছুটি নামঞ্জুর' },
      notice: (decision, child, from, to) => {
        const span = to ? `${from} থেকে ${to} পর্যন্ত` : `${from} তারিখের`;
        return decision === 'approved'
          ? `কেন্দ্র ${child}-এর ${span} ছুটি অনুমোদন করেছে।`
          : `কেন্দ্র ${child}-এর ${span} ছুটির আবেদন নামঞ্জুর করেছে। কোনো প্রশ্ন থাকলে দয়া করে কেন্দ্রে ফোন করুন।`;
      },
    },
    whatsappOn: (centre) => `আপনি আবার ${centre} থেকে হোয়াটসঅ্যাপ বার্তা পাবেন। বন্ধ করতে STOP লিখে উত্তর দিন।`,
    whatsappOff: (centre) =>
      `আপনি আর ${centre} থেকে হোয়াটসঅ্যাপ বার্তা পাবেন না। অনুপস্থিতির বার্তা ও নোটিশ অভিভাবক অ্যাপে পেতে থাকবেন। আবার পেতে START লিখে উত্তর দিন।`,
  },
  ur: {
    status: { absent: 'غیر حاضر', late: 'تاخیر سے حاضر' },
    className: (name) => `جماعت ${name}`,
    allClasses: 'تمام جماعتیں',
    remarks: (remarks) => ` تبصرہ: ${remarks}`,
    alertSubjects: { absence_alert: 'غیر حاضری کی اطلاع', late_alert: 'تاخیر سے آمد' },
    accessNoticeSubject: 'TuitionDesk تک آپ کی رسائی تبدیل کر دی گئی ہے',
    codeReplacedNotice:
      'مرکز نے آپ کے خاندان کے لیے نیا رسائی کوڈ جاری کیا ہے، اور پرانے کوڈ سے سائن ان آلات سائن آؤٹ کر دیے گئے ہیں۔ اگر آپ نے یہ نہیں کہا تھا تو براہ کرم مرکز کو فون کریں۔',
    phoneChangedNotice: (child) =>
      `مرکز نے ${child} کے ریکارڈ میں والدین کا فون نمبر تبدیل کر دیا ہے، اس لیے یہ ایپ اب ${child} کو نہیں دکھاتی۔ اگر آپ نے یہ نہیں کہا تھا تو براہ کرم مرکز کو فون کریں۔`,
    leaveDecided: {
      subject: { approved: 'چھٹی منظور', declined: 'چھٹی نامنظور' },
      notice: (decision, child, from, to) => {
        const span = to ? `${from} سے ${to} تک کی` : `${from} کی`;
        return decision === 'approved'
          ? `مرکز نے ${child} کی ${span} چھٹی منظور کر لی ہے۔`
          : `مرکز نے ${child} کی ${span} چھٹی نامنظور کر دی ہے۔ اگر آپ کا کوئی سوال ہو تو براہ کرم مرکز کو فون کریں۔`;
      },
    },
    whatsappOn: (centre) =>
      `آپ کو ${centre} سے واٹس ایپ پیغامات دوبارہ ملیں گے۔ انہیں بند کرنے کے لیے STOP لکھ کر بھیجیں۔`,
    whatsappOff: (centre) =>
      `اب آپ کو ${centre} سے واٹس ایپ پیغامات نہیں ملیں گے۔ غیر حاضری کی اطلاعات اور نوٹس والدین کی ایپ میں ملتے رہیں گے۔ دوبارہ حاصل کرنے کے لیے START لکھ کر بھیجیں۔`,
  },
};

/** The server's own words for a family reading `language` (English for a language it does not know). */
export function familyTexts(language: ParentLanguage): FamilyTexts {
  return TEXTS[language] ?? ENGLISH;
}

/** An alert's status word for the family: the glossary's word for absent and late, else the status as stored. */
export function statusWord(status: string, language: ParentLanguage): string {
  const words: Record<string, string> = familyTexts(language).status;
  return words[status] ?? status;
}

/** A day as a family reading `language` reads it: English "23 Nov 2026", else the language's own form. */
export function familyDate(isoDate: string, language: ParentLanguage): string {
  return readableDateIn(isoDate, language);
}
