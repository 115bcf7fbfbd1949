import { readFileSync } from 'node:fs';
import type { HtmlTagDescriptor, Plugin } from 'vite';
import { STARTED_EVENT } from '../src/lib/started-event.ts';

type Texts = { title: string; retrying: string; advice: string; retry: string };
type Language = 'en' | 'hi' | 'mr' | 'ta' | 'bn' | 'ur';

interface Page {
  /** sessionStorage key of the automatic reloads done. */
  key: string;
  /** Where the app keeps the language it shows (localStorage), and the field, if it is kept in JSON. */
  languageKey: string;
  languageField?: string;
  /** The theme colour of the page, for the button. */
  colour: string;
  texts: Record<Language, Texts>;
}

// The texts are the apps' own where they have them (the console's app.console.notLoaded,
// app.checkConnection and common.retry; the parent app's app.failedAdvice and app.retry); "Trying
// again…" and the parent app's title are the guard's own. A plain script cannot read the catalogues.
const RETRYING: Record<Language, string> = {
  en: 'Trying again…',
  hi: 'फिर से कोशिश की जा रही है…',
  mr: 'पुन्हा प्रयत्न करत आहोत…',
  ta: 'மீண்டும் முயற்சிக்கிறோம்…',
  bn: 'আবার চেষ্টা করা হচ্ছে…',
  ur: 'دوبارہ کوشش کی جا رہی ہے…',
};

const CONSOLE: Page = {
  key: 'tuitiondesk.load-attempts.console',
  languageKey: 'user',
  languageField: 'language',
  colour: '#17324d',
  texts: {
    en: {
      title: 'The console could not be loaded.',
      retrying: RETRYING.en,
      advice: 'Check the connection and try again.',
      retry: 'Retry',
    },
    hi: {
      title: 'कंसोल लोड नहीं हो सका।',
      retrying: RETRYING.hi,
      advice: 'कृपया कनेक्शन जाँचें और फिर कोशिश करें।',
      retry: 'फिर कोशिश करें',
    },
    mr: {
      title: 'कन्सोल लोड करता आला नाही.',
      retrying: RETRYING.mr,
      advice: 'कृपया कनेक्शन तपासा आणि पुन्हा प्रयत्न करा.',
      retry: 'पुन्हा प्रयत्न करा',
    },
    ta: {
      title: 'கன்சோலை ஏற்ற முடியவில்லை.',
      retrying: RETRYING.ta,
      advice: 'இணைப்பைச் சரிபார்த்து மீண்டும் முயற்சிக்கவும்.',
      retry: 'மீண்டும் முயற்சிக்கவும்',
    },
    bn: {
      title: 'কনসোল লোড করা যায়নি।',
      retrying: RETRYING.bn,
      advice: 'সংযোগ পরীক্ষা করে আবার চেষ্টা করুন।',
      retry: 'আবার চেষ্টা করুন',
    },
    ur: {
      title: 'کنسول لوڈ نہیں ہو سکا۔',
      retrying: RETRYING.ur,
      advice: 'براہ کرم کنکشن چیک کریں اور دوبارہ کوشش کریں۔',
      retry: 'دوبارہ کوشش کریں',
    },
  },
};

const PARENT: Page = {
  key: 'tuitiondesk.load-attempts.parent',
  languageKey: 'parent_language',
  colour: '#1e5aa8',
  texts: {
    en: {
      title: 'The app could not be loaded.',
      retrying: RETRYING.en,
      advice: 'Check the connection and try again. If it happens again, close the app and open it again.',
      retry: 'Retry',
    },
    hi: {
      title: 'ऐप लोड नहीं हो सका।',
      retrying: RETRYING.hi,
      advice: 'कृपया इंटरनेट कनेक्शन जाँचें और फिर कोशिश करें। अगर फिर से ऐसा हो, तो ऐप बंद करके दोबारा खोलें।',
      retry: 'फिर कोशिश करें',
    },
    mr: {
      title: 'ॲप लोड करता आले नाही.',
      retrying: RETRYING.mr,
      advice: 'कृपया इंटरनेट कनेक्शन तपासा आणि पुन्हा प्रयत्न करा. पुन्हा असे झाल्यास ॲप बंद करून पुन्हा उघडा.',
      retry: 'पुन्हा प्रयत्न करा',
    },
    ta: {
      title: 'செயலியை ஏற்ற முடியவில்லை.',
      retrying: RETRYING.ta,
      advice: 'இணைய இணைப்பைச் சரிபார்த்து மீண்டும் முயற்சிக்கவும். மீண்டும் இப்படி நடந்தால், செயலியை மூடி மீண்டும் திறக்கவும்.',
      retry: 'மீண்டும் முயற்சிக்கவும்',
    },
    bn: {
      title: 'অ্যাপটি লোড করা যায়নি।',
      retrying: RETRYING.bn,
      advice: 'ইন্টারনেট সংযোগ দেখে আবার চেষ্টা করুন। আবার এমন হলে অ্যাপটি বন্ধ করে আবার খুলুন।',
      retry: 'আবার চেষ্টা করুন',
    },
    ur: {
      title: 'ایپ لوڈ نہیں ہو سکی۔',
      retrying: RETRYING.ur,
      advice: 'براہ کرم انٹرنیٹ کنکشن دیکھیں اور دوبارہ کوشش کریں۔ اگر پھر ایسا ہو تو ایپ بند کر کے دوبارہ کھولیں۔',
      retry: 'دوبارہ کوشش کریں',
    },
  },
};

/** The guard's timings: the reloads' delays, how long a page may take to start, when a count is old. */
const TIMINGS = { delaysMs: [1000, 2000, 4000], timeoutMs: 20_000, preloadGraceMs: 2000, forgetMs: 5 * 60_000 };

const MARKER = '<!-- load-guard -->';

/** The guard's script for a page, without its comments and indentation (it is sent in every page). */
export function guardScript(page: Page): string {
  const source = readFileSync(new URL('./load-guard.js', import.meta.url), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('//'))
    .join('\n');
  const config = {
    key: page.key,
    languageKey: page.languageKey,
    languageField: page.languageField,
    texts: page.texts,
    rtl: ['ur'],
    startedEvent: STARTED_EVENT,
    ...TIMINGS,
  };
  return source.replace('GUARD_CONFIG', JSON.stringify(config));
}

function style(page: Page): string {
  return [
    '#load-failure{position:fixed;inset:0;display:flex;align-items:center;justify-content:center;box-sizing:border-box;',
    'padding:24px;background:#fff;color:#1b1b1b;font:17px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}',
    '#load-failure[hidden]{display:none}',
    '#load-failure>div{max-width:30rem;text-align:center}',
    '#load-failure p{margin:0 0 8px}',
    '#load-failure [data-title]{font-size:1.25rem;font-weight:600}',
    '#load-failure button{margin-top:16px;min-height:48px;min-width:140px;padding:8px 24px;border:0;border-radius:8px;',
    `background:${page.colour};color:#fff;font:inherit;font-weight:600;cursor:pointer}`,
    `#load-failure button:focus-visible{outline:3px solid ${page.colour};outline-offset:3px}`,
  ].join('');
}

/**
 * The page's guard for its first scripts (load-guard.js): its style and script at the top of the head,
 * before the module script and the modulepreload links the build adds (so it hears their failures),
 * and its hidden message in the body. Each page marks where with `<!-- load-guard -->` in its head.
 */
export function loadGuard(): Plugin {
  return {
    name: 'tuitiondesk-load-guard',
    transformIndexHtml: {
      order: 'pre',
      handler(html, context) {
        if (!html.includes(MARKER)) throw new Error(`${context.path}: no ${MARKER} in the page's head`);
        const page = /(^|\/)parent\//.test(context.path) ? PARENT : CONSOLE;
        const head = `<style>${style(page)}</style>\n    <script>${guardScript(page)}</script>`;
        const body: HtmlTagDescriptor = {
          tag: 'div',
          attrs: { id: 'load-failure', hidden: true },
          children:
            '<div><div role="alert"><p data-title></p><p data-advice></p></div><button type="button"></button></div>',
          injectTo: 'body-prepend',
        };
        return { html: html.replace(MARKER, head), tags: [body] };
      },
    },
  };
}
