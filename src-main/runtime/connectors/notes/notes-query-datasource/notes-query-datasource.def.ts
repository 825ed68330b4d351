import { defineBlock } from '../../../core/component.ts';
import { connectorSetting, failOnErrorSetting } from '../notes-api-step.ts';

export const notesQueryDatasourceDef = defineBlock({
  type: 'notes-query-datasource',
  summary: 'Queries a data source (POST /data_sources/{id}/query), or the first data source of a database.',
  description:
    'Give exactly one of `dataSource` and `database`. With `database` the block first retrieves the database (one extra GET) and queries its first data source. ' +
    'The response envelope lands in `resultVar`; rows are under `vars.notesResults.results`. One call is made: `pageSize` caps the rows (the service allows at most 100). ' +
    'Needs notesVersion 2025-09-03 or later.',
  settings: {
    connector: connectorSetting,
    dataSource: { type: 'cel', description: 'Data source id (exactly one of dataSource / database).', example: '"1f2e3d4c-0000-4000-8000-00000000d501"' },
    database: { type: 'cel', description: 'Database id; its first data source is queried (exactly one of dataSource / database).', example: 'vars.databaseId' },
    filter: { type: 'cel', description: 'Produces a filter object.', example: '{"property": "Status", "status": {"equals": "Done"}}' },
    sorts: { type: 'cel', description: 'Produces a list of sort objects.', example: '[{"property": "Due", "direction": "ascending"}]' },
    pageSize: { type: 'int', minimum: 1, maximum: 100, description: 'Max results per call; the service\'s own max is 100.' },
    resultVar: { type: 'string', default: 'notesResults', description: 'Variable for the response envelope; rows are under vars.notesResults.results.' },
    failOnError: failOnErrorSetting,
  },
  example: `- notes-query-datasource:
    connector: notes
    dataSource: '"1f2e3d4c-0000-4000-8000-00000000d501"'
    filter: '{"property": "Status", "status": {"equals": "Done"}}'
    sorts: '[{"timestamp": "last_edited_time", "direction": "descending"}]'
    pageSize: 20`,
});
