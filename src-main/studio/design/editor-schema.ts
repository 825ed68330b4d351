type Schema = Record<string, unknown>;

/**
 * The generated definition schema with one addition for the editor's completion: where a
 * connector or a source is one of several typed alternatives (`anyOf`), the `type` key also
 * gets the list of every type beside them. yaml-language-server completes a value only from the
 * alternative the node matches best, so without the list `type:` would offer one type; the list
 * constrains nothing the alternatives do not.
 */
export function editorSchema(generated: Schema): Schema {
  const schema = structuredClone(generated);
  const props = schema.properties as Record<string, Schema> | undefined;
  const connectors = props?.connectors?.additionalProperties as Schema | undefined;
  const flows = props?.flows?.additionalProperties as Schema | undefined;
  const source = (flows?.properties as Record<string, Schema> | undefined)?.source;
  for (const holder of [connectors, source]) if (holder) listTypes(holder);
  return schema;
}

function listTypes(holder: Schema): void {
  const alternatives = (holder.anyOf as Schema[] | undefined) ?? [];
  const types = alternatives.map((a) => (a.properties as Record<string, Schema> | undefined)?.type).filter((t): t is Schema => typeof t?.const === 'string');
  if (types.length === 0) return;
  holder.properties = {
    type: {
      enum: types.map((t) => t.const),
      markdownEnumDescriptions: types.map((t) => String(t.description ?? '')),
    },
  };
}
