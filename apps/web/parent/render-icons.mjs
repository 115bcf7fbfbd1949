// Renders the parent app's PNG icons from SVG with headless Chromium (the PNGs are committed):
//   node apps/web/parent/render-icons.mjs
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const out = path.resolve(import.meta.dirname, '../public/parent/icons');
const BLUE = '#1e5aa8';
// The console's favicon glyph (a mortarboard), drawn on a 64-unit grid.
const GLYPH =
  '<path d="M14 24 32 15l18 9-18 9z" fill="#fff"/><path d="M21 30v10c0 4 22 4 22 0V30l-11 5.5z" fill="#fff"/>';

/** Rounded tile with the glyph: the ordinary ("any") icon. */
const rounded = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="${BLUE}"/>${GLYPH}</svg>`;
/** Full bleed, glyph inside the central 80 % circle the platforms never crop (maskable, Apple). */
const fullBleed = (scale) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${BLUE}"/><g transform="translate(32 30) scale(${scale}) translate(-32 -28)">${GLYPH}</g></svg>`;
/** Monochrome glyph on transparent: Android's status bar badge. */
const badge = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="8 8 48 48">${GLYPH}</svg>`;

const icons = [
  { file: 'icon-192.png', size: 192, svg: rounded },
  { file: 'icon-512.png', size: 512, svg: rounded },
  { file: 'maskable-512.png', size: 512, svg: fullBleed(0.8) },
  { file: 'apple-touch-icon.png', size: 180, svg: fullBleed(0.9) },
  { file: 'badge-96.png', size: 96, svg: badge },
];

mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  for (const { file, size, svg } of icons) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`,
    );
    await page.locator('svg').screenshot({ path: path.join(out, file), omitBackground: true });
    await page.close();
    console.log(path.join(out, file));
  }
} finally {
  await browser.close();
}
