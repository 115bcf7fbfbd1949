// Renders the PNG icons of the two installable apps from SVG with headless Chromium (the PNGs are
// committed): node apps/web/build/render-icons.mjs
//   - the parent app (public/parent/icons): the mortarboard on the centre's blue;
//   - the staff console (public/icons): a register with a tick on dark ink, so a teacher who has both
//     on one phone tells them apart at a glance.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const PUBLIC = path.resolve(import.meta.dirname, '../public');

// Each glyph is drawn on a 64-unit grid, centred near (32, 28).
const MORTARBOARD =
  '<path d="M14 24 32 15l18 9-18 9z" fill="#fff"/><path d="M21 30v10c0 4 22 4 22 0V30l-11 5.5z" fill="#fff"/>';
const REGISTER =
  '<rect x="19" y="12" width="26" height="33" rx="3" fill="#fff"/><rect x="26" y="9" width="12" height="6" rx="2" fill="#fff" stroke="#17324d" stroke-width="1.5"/>' +
  '<path d="M24.5 29.5 30 35l10-11" fill="none" stroke="#17324d" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/>';

function iconSet(glyph, colour) {
  /** Rounded tile with the glyph: the ordinary ("any") icon. */
  const rounded = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="${colour}"/>${glyph}</svg>`;
  /** Full bleed, glyph inside the central 80 % circle the platforms never crop (maskable, Apple). */
  const fullBleed = (scale) =>
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${colour}"/><g transform="translate(32 30) scale(${scale}) translate(-32 -28)">${glyph}</g></svg>`;
  /** Monochrome glyph on transparent: Android's status bar badge. */
  const badge = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="8 8 48 48">${glyph.replaceAll('#17324d', 'transparent')}</svg>`;
  return [
    { file: 'icon-192.png', size: 192, svg: rounded },
    { file: 'icon-512.png', size: 512, svg: rounded },
    { file: 'maskable-512.png', size: 512, svg: fullBleed(0.8) },
    { file: 'apple-touch-icon.png', size: 180, svg: fullBleed(0.9) },
    { file: 'badge-96.png', size: 96, svg: badge },
  ];
}

const sets = [
  { out: path.join(PUBLIC, 'parent/icons'), icons: iconSet(MORTARBOARD, '#1e5aa8') },
  { out: path.join(PUBLIC, 'icons'), icons: iconSet(REGISTER, '#17324d') },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  for (const { out, icons } of sets) {
    mkdirSync(out, { recursive: true });
    for (const { file, size, svg } of icons) {
      const page = await browser.newPage({ viewport: { width: size, height: size } });
      await page.setContent(
        `<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`,
      );
      await page.locator('svg').screenshot({ path: path.join(out, file), omitBackground: true });
      await page.close();
      console.log(path.join(out, file));
    }
  }
} finally {
  await browser.close();
}
