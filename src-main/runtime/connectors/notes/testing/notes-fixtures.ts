/**
 * Realistic notes API objects for tests, shaped like the public API this one is modelled on:
 * pages with typed properties, blocks with `rich_text`, databases listing `data_sources`.
 */

export const WORKSPACE_ID = '2c9b1e7a-4f0d-4a8e-9a51-7f3c0e6b8d12';
export const PAGE_ID = '1f0a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b';
export const LONG_PAGE_ID = '2a1b3c4d-5e6f-4a70-8b9c-0d1e2f3a4b5c';
export const DATABASE_ID = '3b2c4d5e-6f70-4a81-9cad-1e2f3a4b5c6d';
export const DATA_SOURCE_ID = '4c3d5e6f-7081-4b92-8dbe-2f3a4b5c6d7e';
export const SECOND_DATA_SOURCE_ID = '5d4e6f70-8192-4ca3-9ecf-3a4b5c6d7e8f';

export interface Annotations {
  bold?: boolean;
  italic?: boolean;
  strikethrough?: boolean;
  underline?: boolean;
  code?: boolean;
}

/** One rich-text run as the API returns it, every annotation present. */
export function text(content: string, annotations: Annotations = {}, link?: string): Record<string, unknown> {
  return {
    type: 'text',
    text: { content, link: link ? { url: link } : null },
    annotations: { bold: false, italic: false, strikethrough: false, underline: false, code: false, color: 'default', ...annotations },
    plain_text: content,
    href: link ?? null,
  };
}

let blockCounter = 0;

/** A block object of the given type, e.g. `block('paragraph', {rich_text: [text('hi')]})`. */
export function block(type: string, content: Record<string, unknown> = {}, parentId = PAGE_ID): Record<string, unknown> {
  blockCounter++;
  const id = `b10c${blockCounter.toString(16).padStart(4, '0')}-0000-4000-8000-${blockCounter.toString(16).padStart(12, '0')}`;
  return {
    object: 'block',
    id,
    parent: { type: 'page_id', page_id: parentId },
    created_time: '2025-09-10T08:00:00.000Z',
    last_edited_time: '2025-09-12T09:30:00.000Z',
    created_by: { object: 'user', id: 'u-1' },
    last_edited_by: { object: 'user', id: 'u-1' },
    has_children: false,
    archived: false,
    in_trash: false,
    type,
    [type]: content,
  };
}

const plain = (content: string) => ({ rich_text: [text(content)], color: 'default' });

/** A page using every block type and annotation the Markdown renderer supports. */
export function everySupportedBlock(): Record<string, unknown>[] {
  return [
    block('heading_1', { rich_text: [text('Release notes')], is_toggleable: false, color: 'default' }),
    block('paragraph', {
      rich_text: [
        text('This release is '),
        text('bold', { bold: true }),
        text(', '),
        text('italic', { italic: true }),
        text(', '),
        text('gone', { strikethrough: true }),
        text(', uses '),
        text('npm test', { code: true }),
        text(' and links to '),
        text('the docs', {}, 'https://docs.example.com/notes'),
        text('. '),
        text('All at once', { bold: true, italic: true, strikethrough: true }),
        text(' and a '),
        text('bold link', { bold: true }, 'https://example.com/a'),
        text('.'),
      ],
      color: 'default',
    }),
    block('heading_2', { rich_text: [text('Changes')], is_toggleable: false, color: 'default' }),
    block('bulleted_list_item', plain('Faster sync')),
    block('bulleted_list_item', { rich_text: [text('Fewer '), text('errors', { italic: true })], color: 'default' }),
    block('heading_3', { rich_text: [text('Steps')], is_toggleable: false, color: 'default' }),
    block('numbered_list_item', plain('Install')),
    block('numbered_list_item', plain('Configure')),
    block('numbered_list_item', plain('Run')),
    block('paragraph', plain('Then, separately:')),
    block('numbered_list_item', plain('Restart')),
    block('quote', { rich_text: [text('Ship small, ship often.\nThen ship again.')], color: 'default' }),
    block('callout', { rich_text: [text('Back up first.')], icon: { type: 'emoji', emoji: '💡' }, color: 'gray_background' }),
    block('to_do', { rich_text: [text('Write docs')], checked: true, color: 'default' }),
    block('to_do', { rich_text: [text('Announce')], checked: false, color: 'default' }),
    block('code', { rich_text: [text('const answer = 42;\nconsole.log(`answer: ${answer}`);')], language: 'typescript', caption: [] }),
    block('divider', {}),
    block('paragraph', plain('The end.')),
  ];
}

/** A page long enough to need three requests of 100 blocks. */
export function longPage(count = 250): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => block('paragraph', plain(`Line ${i + 1}`), LONG_PAGE_ID));
}

export function page(id: string, title: string, props: Record<string, unknown> = {}, lastEdited = '2025-09-12T09:30:00.000Z'): Record<string, unknown> {
  return {
    object: 'page',
    id,
    created_time: '2025-09-10T08:00:00.000Z',
    last_edited_time: lastEdited,
    created_by: { object: 'user', id: 'u-1' },
    last_edited_by: { object: 'user', id: 'u-1' },
    cover: null,
    icon: null,
    parent: { type: 'data_source_id', data_source_id: DATA_SOURCE_ID, database_id: DATABASE_ID },
    archived: false,
    in_trash: false,
    properties: {
      Name: { id: 'title', type: 'title', title: [text(title)] },
      ...props,
    },
    url: `https://notes.example/${id.replace(/-/g, '')}`,
    public_url: null,
  };
}

export const status = (name: string) => ({ id: 'st', type: 'status', status: { id: `s-${name}`, name, color: 'green' } });
export const number = (value: number) => ({ id: 'nm', type: 'number', number: value });

/** Rows of the tasks data source. */
export function taskRows(): Record<string, unknown>[] {
  return [
    page('a0000000-0000-4000-8000-000000000001', 'Write spec', { Status: status('Done'), Points: number(3) }, '2025-09-01T10:00:00.000Z'),
    page('a0000000-0000-4000-8000-000000000002', 'Build double', { Status: status('In progress'), Points: number(5) }, '2025-09-03T10:00:00.000Z'),
    page('a0000000-0000-4000-8000-000000000003', 'Render markdown', { Status: status('Done'), Points: number(8) }, '2025-09-02T10:00:00.000Z'),
    page('a0000000-0000-4000-8000-000000000004', 'Ship', { Status: status('Not started'), Points: number(1) }, '2025-09-04T10:00:00.000Z'),
  ];
}

export function database(id: string, dataSources: Array<{ id: string; name: string }>): Record<string, unknown> {
  return {
    object: 'database',
    id,
    title: [text('Tasks')],
    description: [],
    parent: { type: 'page_id', page_id: PAGE_ID },
    is_inline: false,
    in_trash: false,
    created_time: '2025-09-01T08:00:00.000Z',
    last_edited_time: '2025-09-12T09:30:00.000Z',
    data_sources: dataSources,
    icon: null,
    cover: null,
    url: `https://notes.example/${id.replace(/-/g, '')}`,
  };
}

/** A webhook event as the notes service posts it. */
export function webhookEvent(type: string, entityId = PAGE_ID, entityType = 'page'): Record<string, unknown> {
  return {
    id: 'e7f0c2a1-5b6d-4e8f-9a0b-1c2d3e4f5a6b',
    timestamp: '2025-09-12T09:31:07.482Z',
    workspace_id: WORKSPACE_ID,
    workspace_name: 'Acme',
    subscription_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
    integration_id: '8b7c6d5e-4f3a-4b2c-9d1e-0f9a8b7c6d5e',
    type,
    authors: [{ id: 'u-1', type: 'person' }],
    attempt_number: 1,
    entity: { id: entityId, type: entityType },
    data: { parent: { id: WORKSPACE_ID, type: 'space' }, updated_blocks: [{ id: 'b-1', type: 'block' }] },
  };
}
