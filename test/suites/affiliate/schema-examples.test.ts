import { describe } from 'vitest';
import { schemaExampleTests, type SchemaExamples } from '../../helpers/schema-examples.js';

/**
 * Hand-written examples of every affiliate schema, from the field tables of spec 001 part E:
 * each schema accepts its good example and refuses each broken one, which breaks exactly one
 * rule of the tables (a wrong type, a missing field, a value outside the allowed ones).
 */
type Json = Record<string, unknown>;
const without = (o: Json, key: string): Json => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));
const envelope = { message: null, server: { date: '2024-05-06 07:08:09', httpCode: 200, executionTime: 0.012 } };
const lead = {
  campaignName: 'Northwind', countryName: 'Germany', custom1: 'a', custom2: null, custom3: null, custom4: null, custom5: null,
  platform: 'Windows', browser: 'Firefox', signupDate: '2024-05-01 10:11:12', isSmartClick: '0', customerID: '1001', countryCode: 'DE',
  saleStatus: null, campaignHash: 'h1', leadRequestIDEncoded: 'aBc123', hasFTD: 1,
};
const conversion = {
  depositDate: '2024-05-02 10:11:12', customerID: '1001', custom1: 'a', custom2: null, custom3: null, custom4: null, custom5: null,
  platform: 'Windows', browser: 'Firefox', campaignName: 'Northwind', countryName: 'Germany', referer: null, isSmartClick: '0',
  countryCode: 'DE', campaignHash: 'h1', leadRequestIDEncoded: 'aBc123',
};
const offer = {
  id: 7, name: 'Gold', hash: 'o7', catalogLogoPath: '/logos/7.png', website: 'gold.example.com',
  commissions: [{ commissionEvent: 'FTD', countryName: 'Germany', commisionAmount: '250' }], verticals: [{ ID: '3', name: 'Forex' }],
};
const postback = {
  ID: 1, projectID: 2, whitelabelID: 11, title: 'Signup ping', type: 1, url: 'https://tracker.example/pb', check_condition: 'always',
  time_registered: '2024-04-01 00:00:00', status: 1, comment: '', amount: 0, event: 1, projectTitle: 'P', hash: 'pb1',
  whitelabelName: 'Northwind', affiliateEmail: 'aff@example.com', affiliateName: 'Aff', affiliateHash: 'af1',
};
const details = {
  leadRequest: { ID: 'lr-1' }, advertiser: { name: 'Broker', logo: '/logo.png' }, offer: { ID: '7', name: 'Gold', hash: 'o7' },
  postbacks: [], redirect: { url: 'https://broker.example/login?t=1' },
};
const autologin = { url: 'https://broker.example/login', parameters: [{ name: 't', value: '1' }], fragment: null, method: 'POST' };

const EXAMPLES: Record<string, SchemaExamples> = {
  envelope: { good: [envelope, { ...envelope, message: 'refused' }], bad: [['server.httpCode a string', { ...envelope, server: { ...envelope.server, httpCode: '200' } }], ['no server', { message: null }]] },
  error: { good: [{ ...envelope, message: 'x', messages: ['the Api-Key is not valid'] }], bad: [['messages empty', { messages: [] }], ['messages[0] a number', { messages: [401] }], ['no messages', { message: 'x' }]] },
  'register-answer': { good: [{ ...envelope, details }], bad: [['no redirect', { ...envelope, details: without(details, 'redirect') }], ['leadRequest.ID a number', { ...envelope, details: { ...details, leadRequest: { ID: 1 } } }], ['no envelope', { details }]] },
  'autologin-answer': {
    good: [{ ...envelope, details: autologin }, { ...envelope, details: { ...autologin, parameters: { t: '1' }, fragment: 'top', method: 'GET' } }],
    bad: [['method PUT', { ...envelope, details: { ...autologin, method: 'PUT' } }], ['fragment a number', { ...envelope, details: { ...autologin, fragment: 1 } }], ['parameters a string', { ...envelope, details: { ...autologin, parameters: 't=1' } }]],
  },
  'offer-list': {
    good: [{ ...envelope, data: { items: [offer], page: 1, totalItems: 1 } }],
    bad: [['commissionAmount spelled the usual way', { ...envelope, data: { items: [{ ...offer, commissions: [{ commissionEvent: 'FTD', countryName: 'DE', commissionAmount: '250' }] }], page: 1, totalItems: 1 } }], ['id a string', { ...envelope, data: { items: [{ ...offer, id: '7' }], page: 1, totalItems: 1 } }], ['totalItems a string', { ...envelope, data: { items: [], page: 1, totalItems: '0' } }]],
  },
  'lead-list': {
    good: [{ ...envelope, items: [lead], total: { items: 1 } }],
    bad: [['isSmartClick a number', { ...envelope, items: [{ ...lead, isSmartClick: 0 }], total: { items: 1 } }], ['hasFTD "1"', { ...envelope, items: [{ ...lead, hasFTD: '1' }], total: { items: 1 } }], ['total.items a string', { ...envelope, items: [], total: { items: '0' } }], ['no leadRequestIDEncoded', { ...envelope, items: [without(lead, 'leadRequestIDEncoded')], total: { items: 1 } }]],
  },
  'conversion-list': {
    good: [{ ...envelope, items: [conversion], total: { items: '1' } }],
    bad: [['total.items an integer', { ...envelope, items: [conversion], total: { items: 1 } }], ['referer a number', { ...envelope, items: [{ ...conversion, referer: 3 }], total: { items: '1' } }], ['no depositDate', { ...envelope, items: [without(conversion, 'depositDate')], total: { items: '1' } }]],
  },
  income: { good: [{ ...envelope, cost: 10.5, income: 250 }], bad: [['cost a string', { ...envelope, cost: '10.5', income: 250 }], ['no income', { ...envelope, cost: 1 }]] },
  'postback-list': {
    good: [{ ...envelope, items: [postback], total: { items: 1 } }],
    bad: [['type a string', { ...envelope, items: [{ ...postback, type: 'Signup' }], total: { items: 1 } }], ['amount a string', { ...envelope, items: [{ ...postback, amount: '0' }], total: { items: 1 } }], ['no affiliateHash', { ...envelope, items: [without(postback, 'affiliateHash')], total: { items: 1 } }]],
  },
  'lead-request': {
    good: [{ email: 'a@example.com', firstName: 'A', lastName: 'B', password: 'pw123456', ip: '203.0.113.7', phone: '5551234', areaCode: '44', custom: 'x', currency: 'EUR' }],
    bad: [['no phone', { email: 'a@example.com', firstName: 'A', lastName: 'B', password: 'pw', ip: '203.0.113.7' }], ['areaCode not numeric', { email: 'a@example.com', firstName: 'A', lastName: 'B', password: 'pw', ip: '1.2.3.4', phone: '1', areaCode: 'x1' }], ['email empty', { email: '', firstName: 'A', lastName: 'B', password: 'pw', ip: '1.2.3.4', phone: '1' }]],
  },
};

describe('affiliate schemas', () => {
  schemaExampleTests('affiliate', EXAMPLES, "the tables' example");
});
