/**
 * The overview pictures: each machine's DOT renders (Graphviz in WebAssembly, no browser) to an
 * SVG that a strict XML parser accepts, that names every state, and that is at most 1,600 px
 * wide; and the rendering is byte-stable, so `npm run visualize:check` can compare files.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { AnyStateNode } from 'xstate';
import { renderSvg } from '../../scripts/visualize.js';
import { toOverviewDot } from '../../src/diagrams/overview-dot.js';
import { MACHINE_REGISTRY } from '../../src/machines/registry.js';

function nodesBelow(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states as Record<string, AnyStateNode>).flatMap((child) => [
    child,
    ...nodesBelow(child),
  ]);
}

// The few DOM types used here: jsdom ships no declarations, and the config has no DOM library.
interface XmlElement {
  readonly tagName: string;
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
}
interface XmlDocument {
  readonly documentElement: XmlElement;
  getElementsByTagName(name: string): ArrayLike<XmlElement>;
}
const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new (
    text: string,
    options: { contentType: string },
  ) => { readonly window: { readonly document: XmlDocument } };
};

/** Parses as XML: with an XML content type jsdom's parser is strict and throws on a bad document. */
function parseXml(text: string): XmlDocument {
  return new JSDOM(text, { contentType: 'image/svg+xml' }).window.document;
}

const machines = MACHINE_REGISTRY.map((entry) => [entry.name, entry.machine] as const);

describe('the XML check', () => {
  it('refuses a malformed document (the check can fail)', () => {
    expect(() => parseXml('<svg><g></svg>')).toThrow();
  });
});

describe.each(machines)('the %s overview SVG', (_, machine) => {
  it('parses as XML, names every state, and is at most 1,600 px wide (1 pt = 1 px at 72 dpi)', async () => {
    const document = parseXml(await renderSvg(toOverviewDot(machine)));
    const root = document.documentElement;
    expect(root.tagName).toBe('svg');
    const width = /^([\d.]+)pt$/.exec(root.getAttribute('width') ?? '');
    expect(width).not.toBeNull();
    expect(Number(width?.[1])).toBeLessThanOrEqual(1600);
    const texts = new Set(
      Array.from(document.getElementsByTagName('text')).map((text) => text.textContent),
    );
    for (const node of nodesBelow(machine.root)) expect(texts).toContain(node.key);
  });

  it('renders byte for byte the same each time (so `--check` can compare files)', async () => {
    const dot = toOverviewDot(machine);
    expect(await renderSvg(dot)).toBe(await renderSvg(dot));
  });
});
