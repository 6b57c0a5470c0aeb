/**
 * The conformance suite's content tools, the same on both test servers (`server.ts` on the 2025
 * wire, `server-2026.ts` on 2026-07-28): each tool's description and the exact result its
 * scenario checks. Pure data.
 */

/** A 1x1 red PNG, base64. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** A minimal WAV header, base64. */
const WAV = Buffer.from('RIFF$\u0000\u0000\u0000WAVEfmt \u0010\u0000\u0000\u0000').toString(
  'base64',
);

/** One content tool: its description and the result it answers every call with. */
export interface ContentTool {
  readonly description: string;
  readonly result: {
    readonly content: readonly Readonly<Record<string, unknown>>[];
    readonly isError?: true;
  };
}

/** The content tools by name, in the suite's order. */
export const CONTENT_TOOLS: Readonly<Record<string, ContentTool>> = {
  test_simple_text: {
    description: 'Returns simple text',
    result: { content: [{ type: 'text', text: 'This is a simple text response for testing.' }] },
  },
  test_image_content: {
    description: 'Returns an image',
    result: { content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] },
  },
  test_audio_content: {
    description: 'Returns audio',
    result: { content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] },
  },
  test_embedded_resource: {
    description: 'Returns a resource',
    result: {
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    },
  },
  test_multiple_content_types: {
    description: 'Returns text, an image and a resource',
    result: {
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: '{"test":"data","value":123}',
          },
        },
      ],
    },
  },
  test_error_handling: {
    description: 'Always fails',
    result: {
      content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
      isError: true,
    },
  },
};
