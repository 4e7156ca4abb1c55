import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../src/engine/loader/schema-check.js';
import { schemaFindings, type SchemaFindings } from '../../src/engine/schema-sentences.js';
import { fromRoot } from '../../src/paths.js';

/** A schema the events suite ships, as its checks see it. */
function eventsSchema(name: string): object {
  return JSON.parse(readFileSync(fromRoot('suites', 'events', 'schemas', `${name}.json`), 'utf8')) as object;
}

function findings(schema: object, value: unknown): SchemaFindings {
  const validate = createAjv().compile(schema);
  expect(validate(value), 'the value breaks the schema').toBe(false);
  return schemaFindings(validate.errors, value, schema);
}

/** A platform event the schema accepts, of the given type and payload. */
function event(type: string, payload: object, more: object = {}): Record<string, unknown> {
  return {
    id: '1',
    type,
    actor: { id: 1, login: 'ada', display_login: 'ada', avatar_service_id: '', url: 'u', avatar_url: 'a' },
    repo: { id: 2, name: 'ada/x', url: 'r' },
    payload,
    public: true,
    created_at: '2024-01-01T00:00:00Z',
    ...more,
  };
}

const PUSH = { repository_id: 2, push_id: 3, ref: 'refs/heads/main', head: 'h', before: 'b' };

describe('schema failures in plain words', () => {
  it('names an event by its type and says which field its payload lacks, without the branch-choice error', () => {
    const list = [event('WatchEvent', { action: 'started' }), event('PushEvent', { ...PUSH, repository_id: undefined })];
    const { problems, raw } = findings(eventsSchema('platform-events'), JSON.parse(JSON.stringify(list)));
    expect(problems).toEqual(['PushEvent payload lacks repository_id (at [1].payload)']);
    // ajv's own errors stay for machine readers, the if/then one among them
    expect(raw.map((e) => e.keyword)).toEqual(['required', 'if']);
    expect(raw[0]).toMatchObject({ path: '/1/payload', params: { missingProperty: 'repository_id' } });
  });

  it('says which item of a list holds a value of the wrong type, what was expected and what came', () => {
    const good = { id: 1, id_str: '1', title: 't', text: 'x', date_happened: 1, priority: 'normal', alert_type: 'info', source_type_name: 's', tags: [], url: 'u' };
    const body = { status: 'ok', events: [good, good, good, { ...good, date_happened: '2024-01-01' }] };
    expect(findings(eventsSchema('mon-events-v1-list'), body).problems).toEqual(['events[3].date_happened: expected an integer, got "2024-01-01"']);
  });

  it('reads a short description as the form of a value', () => {
    const { problems } = findings(eventsSchema('platform-event'), event('WatchEvent', { action: 'started' }, { created_at: 12 }));
    expect(problems).toEqual(['created_at: expected a string (ISO 8601 date-time), got 12']);
  });

  it('names the object a required field is missing from by its schema title', () => {
    const { problems } = findings(eventsSchema('platform-issue-event'), { id: 1 });
    expect(problems[0]).toMatch(/^Issue event lacks node_id$/);
  });

  it('of an anyOf between an object and null, speaks of the object the value is', () => {
    const { problems } = findings(eventsSchema('platform-issue-events'), [{ performed_via_platform_app: { owner: 5 } }]);
    expect(problems).toContain('[0].performed_via_platform_app.owner: expected an object, got 5');
    expect(problems.join('\n')).not.toMatch(/null|anyOf|forms/);
  });

  it('chooses the oneOf branch by the discriminator ajv reads, and names the object by it', () => {
    const schema = {
      type: 'array',
      items: {
        type: 'object',
        required: ['type'],
        discriminator: { propertyName: 'type' },
        oneOf: [
          { properties: { type: { const: 'PushEvent' }, payload: { type: 'object', required: ['repository_id'] } } },
          { properties: { type: { const: 'WatchEvent' }, payload: { type: 'object', required: ['action'] } } },
        ],
      },
    };
    const { problems } = findings(schema, [{ type: 'WatchEvent', payload: { action: 'x' } }, { type: 'PushEvent', payload: {} }, { type: 'ForkEvent' }]);
    expect(problems).toEqual(['PushEvent payload lacks repository_id (at [1].payload)', '[2] has type "ForkEvent", none of the kinds the schema knows']);
  });

  it('without a discriminator, chooses the branch whose constants the value carries', () => {
    const schema = {
      oneOf: [
        { type: 'object', required: ['kind', 'to'], properties: { kind: { const: 'mail' }, to: { type: 'string' } } },
        { type: 'object', required: ['kind', 'number'], properties: { kind: { const: 'sms' }, number: { type: 'string' } } },
      ],
    };
    expect(findings(schema, { kind: 'sms', number: 5 }).problems).toEqual(['kind "sms" number: expected a string, got 5 (at number)']);
    // a value of no branch's kind: one sentence, the forms it could take
    expect(findings(schema, 'hello').problems).toEqual(['the value: matches none of the forms the schema allows (an object; an object), got "hello"']);
  });

  it('says a field the schema does not allow by its name', () => {
    const schema = { title: 'Label (spec 002)', type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false };
    expect(findings(schema, { name: 'bug', foo: 1 }).problems).toEqual(['Label has a field `foo` the schema does not allow']);
  });
});
