/**
 * Draws the fleet's pictures: a clean side view per body type (city car, hatchback, sedan, SUV,
 * pickup, van) in the car's exterior colour, without any make's styling or logo, on two or three
 * backgrounds (studio, city street at dusk, desert road). SVG: small and crisp at any size.
 *
 * The fleet is read from the seed itself: the script applies supabase/local/postgres/bootstrap.sql, the
 * migrations and supabase/seed.sql to an in-memory PGlite and draws every path a car's `images`
 * names (`/cars/<slug>-<n>.svg`, n = 1 studio, 2 street, 3 desert). Run once after changing the
 * fleet, and commit public/cars:
 *
 *   npx tsx scripts/generate-car-images.ts
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { uuid_ossp } from '@electric-sql/pglite/contrib/uuid_ossp';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'public', 'cars');

type Body = 'city' | 'hatchback' | 'sedan' | 'suv' | 'pickup' | 'van';
type Point = [number, number];

/** A body seen from the side, facing right: x from the rear bumper, y up from the ground. */
type Shape = {
  length: number;
  /** The outline, clockwise from the rear bottom corner. */
  outline: Point[];
  /** Side windows (each a polygon). */
  windows: Point[][];
  wheelX: [number, number];
  wheelR: number;
  /** Door seams (x) between the belt line and the sill. */
  doors: number[];
  beltY: number;
  sillY: number;
  /** Where the mirror sits (base of the windscreen). */
  mirror: Point;
  headlight: Point;
  taillight: Point;
  roofRails?: [number, number, number];
};

const SHAPES: Record<Body, Shape> = {
  city: {
    length: 280,
    outline: [
      [6, 16],
      [0, 50],
      [4, 100],
      [20, 120],
      [158, 124],
      [206, 82],
      [262, 72],
      [277, 58],
      [280, 28],
      [272, 16],
    ],
    windows: [
      [
        [24, 86],
        [32, 110],
        [98, 113],
        [98, 86],
      ],
      [
        [106, 86],
        [106, 113],
        [154, 114],
        [192, 86],
      ],
    ],
    wheelX: [56, 222],
    wheelR: 26,
    doors: [102, 196],
    beltY: 84,
    sillY: 16,
    mirror: [196, 88],
    headlight: [266, 64],
    taillight: [4, 80],
  },
  hatchback: {
    length: 330,
    outline: [
      [6, 16],
      [0, 48],
      [4, 96],
      [22, 114],
      [182, 118],
      [236, 80],
      [310, 70],
      [326, 56],
      [330, 28],
      [322, 16],
    ],
    windows: [
      [
        [26, 84],
        [34, 106],
        [120, 110],
        [120, 84],
      ],
      [
        [128, 84],
        [128, 110],
        [178, 111],
        [220, 84],
      ],
    ],
    wheelX: [68, 264],
    wheelR: 29,
    doors: [124, 226],
    beltY: 82,
    sillY: 16,
    mirror: [226, 86],
    headlight: [314, 62],
    taillight: [4, 78],
  },
  sedan: {
    length: 360,
    outline: [
      [6, 16],
      [0, 46],
      [6, 70],
      [70, 78],
      [122, 112],
      [216, 116],
      [264, 82],
      [340, 72],
      [356, 58],
      [360, 28],
      [352, 16],
    ],
    windows: [
      [
        [84, 78],
        [126, 106],
        [172, 108],
        [172, 78],
      ],
      [
        [180, 78],
        [180, 108],
        [212, 109],
        [248, 80],
      ],
    ],
    wheelX: [80, 286],
    wheelR: 30,
    doors: [176, 252],
    beltY: 78,
    sillY: 16,
    mirror: [252, 84],
    headlight: [344, 64],
    taillight: [4, 64],
  },
  suv: {
    length: 370,
    outline: [
      [6, 24],
      [0, 62],
      [4, 112],
      [18, 138],
      [250, 140],
      [292, 100],
      [352, 90],
      [368, 74],
      [370, 36],
      [360, 24],
    ],
    windows: [
      [
        [24, 104],
        [30, 130],
        [128, 133],
        [128, 104],
      ],
      [
        [136, 104],
        [136, 133],
        [244, 134],
        [280, 104],
      ],
    ],
    wheelX: [80, 292],
    wheelR: 36,
    doors: [132, 284],
    beltY: 100,
    sillY: 24,
    mirror: [284, 104],
    headlight: [356, 82],
    taillight: [4, 96],
    roofRails: [44, 236, 145],
  },
  pickup: {
    length: 390,
    outline: [
      [4, 26],
      [0, 92],
      [150, 92],
      [156, 138],
      [262, 140],
      [302, 98],
      [372, 88],
      [388, 72],
      [390, 38],
      [380, 26],
    ],
    windows: [
      [
        [166, 98],
        [170, 130],
        [220, 132],
        [220, 98],
      ],
      [
        [228, 98],
        [228, 132],
        [258, 133],
        [292, 98],
      ],
    ],
    wheelX: [78, 306],
    wheelR: 36,
    doors: [224, 294],
    beltY: 96,
    sillY: 26,
    mirror: [294, 102],
    headlight: [376, 80],
    taillight: [3, 80],
  },
  van: {
    length: 400,
    outline: [
      [6, 20],
      [0, 60],
      [2, 150],
      [14, 164],
      [302, 166],
      [360, 110],
      [390, 94],
      [398, 72],
      [400, 32],
      [392, 20],
    ],
    windows: [
      [
        [22, 112],
        [24, 152],
        [110, 154],
        [110, 112],
      ],
      [
        [118, 112],
        [118, 154],
        [210, 155],
        [210, 112],
      ],
      [
        [218, 112],
        [218, 155],
        [292, 156],
        [300, 112],
      ],
      [
        [308, 112],
        [308, 150],
        [352, 112],
      ],
    ],
    wheelX: [80, 322],
    wheelR: 32,
    doors: [214, 304],
    beltY: 108,
    sillY: 20,
    mirror: [350, 114],
    headlight: [386, 84],
    taillight: [3, 100],
  },
};

const COLORS: Record<string, string> = {
  white: '#f3f4f6',
  black: '#22262b',
  silver: '#c3c8ce',
  grey: '#6b7280',
  red: '#c0262d',
  blue: '#1f4fbf',
  green: '#2f6a3c',
  beige: '#d6c4a0',
  brown: '#6b4a33',
  orange: '#e46f24',
  yellow: '#efbd2b',
};

function shade(hex: string, amount: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (v: number) =>
    Math.round(amount < 0 ? v * (1 + amount) : v + (255 - v) * amount)
      .toString(16)
      .padStart(2, '0');
  return `#${channel(n >> 16)}${channel((n >> 8) & 255)}${channel(n & 255)}`;
}

const r1 = (v: number) => Math.round(v * 10) / 10;

/** A closed path through `points` with corners rounded by up to `radius`. */
function rounded(points: Point[], radius: number): string {
  const n = points.length;
  let d = '';
  for (let i = 0; i < n; i++) {
    const p = points[i]!;
    const prev = points[(i + n - 1) % n]!;
    const next = points[(i + 1) % n]!;
    const cut = (a: Point, b: Point) => {
      const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
      const t = Math.min(radius, len / 2) / len;
      return [r1(a[0] + (b[0] - a[0]) * t), r1(a[1] + (b[1] - a[1]) * t)] as Point;
    };
    const inPt = cut(p, prev);
    const outPt = cut(p, next);
    d += `${i === 0 ? 'M' : 'L'}${inPt[0]} ${inPt[1]}Q${p[0]} ${p[1]} ${outPt[0]} ${outPt[1]}`;
  }
  return `${d}Z`;
}

type Scene = 'studio' | 'street' | 'desert';
const SCENES: Scene[] = ['studio', 'street', 'desert'];

const W = 480;
const H = 270;
const GROUND = 222;

function background(scene: Scene): string {
  switch (scene) {
    case 'studio':
      return (
        '<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f5f7fa"/>' +
        '<stop offset="1" stop-color="#dde3ea"/></linearGradient></defs>' +
        `<rect width="${W}" height="${H}" fill="url(#bg)"/>` +
        `<rect y="${GROUND}" width="${W}" height="${H - GROUND}" fill="#cfd6de"/>`
      );
    case 'street': {
      const buildings: [number, number, number][] = [
        [0, 70, 120],
        [64, 48, 150],
        [116, 80, 96],
        [200, 56, 170],
        [260, 90, 128],
        [354, 60, 156],
        [418, 62, 110],
      ];
      let city = '';
      for (const [x, w, h] of buildings) {
        city += `<rect x="${x}" y="${GROUND - 40 - h}" width="${w}" height="${h}" fill="#3c4a63"/>`;
        for (let wy = GROUND - 30 - h; wy < GROUND - 52; wy += 22) {
          for (let wx = x + 8; wx < x + w - 12; wx += 16) {
            if ((wx * 7 + wy * 3) % 5 < 2)
              city += `<rect x="${wx}" y="${wy}" width="7" height="9" fill="#f7d488"/>`;
          }
        }
      }
      return (
        '<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2b3a67"/>' +
        '<stop offset=".7" stop-color="#e07a5f"/><stop offset="1" stop-color="#f2cc8f"/></linearGradient></defs>' +
        `<rect width="${W}" height="${H}" fill="url(#bg)"/>${city}` +
        `<rect y="${GROUND - 40}" width="${W}" height="40" fill="#8d99ae"/>` +
        `<rect y="${GROUND}" width="${W}" height="${H - GROUND}" fill="#3d4451"/>` +
        `<path d="M0 ${GROUND + 30}H${W}" stroke="#e9ecef" stroke-width="3" stroke-dasharray="26 18"/>`
      );
    }
    case 'desert':
      return (
        '<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#9fd3ef"/>' +
        '<stop offset="1" stop-color="#fbe3bd"/></linearGradient></defs>' +
        `<rect width="${W}" height="${H}" fill="url(#bg)"/>` +
        '<circle cx="392" cy="58" r="26" fill="#ffe8a3"/>' +
        `<path d="M0 ${GROUND - 44}Q90 ${GROUND - 92} 190 ${GROUND - 50}T380 ${GROUND - 58}T${W} ${GROUND - 70}V${GROUND}H0Z" fill="#e4b877"/>` +
        `<path d="M0 ${GROUND - 18}Q140 ${GROUND - 58} 280 ${GROUND - 22}T${W} ${GROUND - 30}V${GROUND}H0Z" fill="#d49a5a"/>` +
        `<rect y="${GROUND}" width="${W}" height="${H - GROUND}" fill="#7a6a5a"/>` +
        `<path d="M0 ${GROUND + 30}H${W}" stroke="#f3e9d2" stroke-width="3" stroke-dasharray="30 22"/>`
      );
  }
}

function wheel(cx: number, cy: number, r: number, spokes: number): string {
  let s =
    `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#1c1e21"/>` +
    `<circle cx="${cx}" cy="${cy}" r="${r1(r * 0.64)}" fill="#c9ced4"/>` +
    `<circle cx="${cx}" cy="${cy}" r="${r1(r * 0.5)}" fill="#8e969f"/>`;
  let d = '';
  for (let i = 0; i < spokes; i++) {
    const a = (i / spokes) * 2 * Math.PI;
    d += `M${cx} ${cy}L${r1(cx + Math.cos(a) * r * 0.6)} ${r1(cy + Math.sin(a) * r * 0.6)}`;
  }
  s += `<path d="${d}" stroke="#d7dce1" stroke-width="${r1(r * 0.13)}" stroke-linecap="round"/>`;
  s += `<circle cx="${cx}" cy="${cy}" r="${r1(r * 0.16)}" fill="#5b626a"/>`;
  return s;
}

function car(body: Body, color: string, spokes: number): string {
  const shape = SHAPES[body];
  const paint = COLORS[color] ?? COLORS.silver!;
  const dark = shade(paint, -0.35);
  const light = shade(paint, 0.25);
  // Car coordinates (y up from the ground) → drawing (y down), the car centred.
  const ox = (W - shape.length) / 2;
  const pt = ([x, y]: Point): Point => [r1(ox + x), r1(GROUND - y)];
  const outline = rounded(shape.outline.map(pt), 12);
  const [wr, wf] = shape.wheelX;
  const wy = GROUND - shape.wheelR;

  let s =
    '<defs>' +
    `<linearGradient id="paint" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${light}"/>` +
    `<stop offset=".55" stop-color="${paint}"/><stop offset="1" stop-color="${dark}"/></linearGradient>` +
    '<linearGradient id="glass" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#5d7286"/>' +
    '<stop offset="1" stop-color="#1f2b38"/></linearGradient>' +
    `<clipPath id="body"><path d="${outline}"/></clipPath>` +
    '</defs>';
  s += `<ellipse cx="${W / 2}" cy="${GROUND + 2}" rx="${r1(shape.length / 2 + 12)}" ry="7" fill="#000" opacity=".22"/>`;
  if (shape.roofRails) {
    const [a, b, y] = shape.roofRails;
    const [ax, ay] = pt([a, y]);
    const [bx] = pt([b, y]);
    s +=
      `<path d="M${ax} ${ay}H${bx}M${ax + 6} ${ay}v8M${bx - 6} ${ay}v8" stroke="#2d3136" ` +
      'stroke-width="4" stroke-linecap="round"/>';
  }
  s += `<path d="${outline}" fill="url(#paint)" stroke="${dark}" stroke-width="1.5"/>`;
  // Wheel wells, the sill shadow, the shoulder highlight, doors and handles: inside the body.
  s += '<g clip-path="url(#body)">';
  for (const x of [wr, wf])
    s += `<circle cx="${pt([x, 0])[0]}" cy="${wy}" r="${shape.wheelR + 6}" fill="#15171a"/>`;
  s += `<rect x="0" y="${GROUND - shape.sillY - 8}" width="${W}" height="12" fill="${dark}" opacity=".55"/>`;
  s += `<path d="M0 ${GROUND - shape.beltY + 6}H${W}" stroke="${light}" stroke-width="2" opacity=".6"/>`;
  let seams = '';
  for (const x of shape.doors) {
    const [sx] = pt([x, 0]);
    seams += `M${sx} ${GROUND - shape.beltY}V${GROUND - shape.sillY - 6}`;
    s += `<rect x="${sx - 24}" y="${GROUND - shape.beltY + 14}" width="14" height="4" rx="2" fill="${dark}"/>`;
  }
  s += `<path d="${seams}" stroke="${dark}" stroke-width="1.4" opacity=".8"/></g>`;
  for (const w of shape.windows) s += `<path d="${rounded(w.map(pt), 5)}" fill="url(#glass)"/>`;
  const [mx, my] = pt(shape.mirror);
  s += `<path d="M${mx} ${my}l10 -6h6v10h-14z" fill="${dark}"/>`;
  const [hx, hy] = pt(shape.headlight);
  s += `<path d="M${hx - 14} ${hy - 4}h14l4 5v5h-18z" fill="#fff6d5" stroke="${dark}" stroke-width="1"/>`;
  const [tx, ty] = pt(shape.taillight);
  s += `<rect x="${tx - 1}" y="${ty - 5}" width="8" height="14" rx="2" fill="#d62828"/>`;
  s +=
    wheel(pt([wr, 0])[0], wy, shape.wheelR, spokes) +
    wheel(pt([wf, 0])[0], wy, shape.wheelR, spokes);
  return s;
}

function drawCar(body: Body, color: string, scene: Scene, seed: number): string {
  const spokes = 5 + (seed % 3);
  // On the street the car faces left, for variety.
  const drawing = car(body, color, spokes);
  const placed =
    scene === 'street' ? `<g transform="matrix(-1 0 0 1 ${W} 0)">${drawing}</g>` : drawing;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}">` +
    `${background(scene)}${placed}</svg>\n`
  );
}

function hash(text: string): number {
  let h = 7;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h;
}

async function fleet(): Promise<
  { slug: string; body: Body; exterior_color: string; images: string[] }[]
> {
  const db = await PGlite.create({ extensions: { btree_gist, pgcrypto, uuid_ossp } });
  const files = [
    join(root, 'supabase', 'local', 'bootstrap.sql'),
    ...readdirSync(join(root, 'supabase', 'migrations'))
      .filter((f) => f.endsWith('.sql'))
      .sort()
      .map((f) => join(root, 'supabase', 'migrations', f)),
    join(root, 'supabase', 'seed.sql'),
  ];
  for (const file of files) await db.exec(readFileSync(file, 'utf8'));
  const { rows } = await db.query<{
    slug: string;
    body: Body;
    exterior_color: string;
    images: string[];
  }>('select slug, body, exterior_color, images from public.cars order by slug');
  await db.close();
  return rows;
}

async function main(): Promise<void> {
  const cars = await fleet();
  mkdirSync(outDir, { recursive: true });
  const written = new Set<string>();
  let bytes = 0;
  for (const c of cars) {
    for (const image of c.images) {
      const match = /^\/cars\/([a-z0-9-]+)-([1-3])\.svg$/.exec(image);
      if (!match)
        throw new Error(`${c.slug}: cannot draw ${image} (expected /cars/<slug>-<1..3>.svg)`);
      const svg = drawCar(c.body, c.exterior_color, SCENES[Number(match[2]) - 1]!, hash(c.slug));
      const file = `${match[1]}-${match[2]}.svg`;
      writeFileSync(join(outDir, file), svg);
      written.add(file);
      bytes += svg.length;
    }
  }
  for (const file of readdirSync(outDir)) {
    if (file.endsWith('.svg') && !written.has(file)) rmSync(join(outDir, file));
  }
  console.info(
    `${written.size} pictures of ${cars.length} cars in public/cars (${Math.round(bytes / 1024)} KB).`,
  );
}

await main();
