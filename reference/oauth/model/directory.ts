/**
 * Registered applications and users of the reference platform. Deterministic, so that a
 * report or a profile can name them; credentials here are test values, not secrets.
 */
export interface App {
  clientId: string;
  clientSecret: string;
  name: string;
  /** The callback URL configured in the application settings (B, Redirect URLs, rule 1). */
  callbackUrl: string;
  /** The device flow must first be enabled in the application's settings (B, Endpoints 4). */
  deviceFlowEnabled: boolean;
}

export interface User {
  id: number;
  login: string;
  password: string;
  name: string;
}

export interface Directory {
  apps: readonly App[];
  users: readonly User[];
}

/** The seeded applications and users every reference server starts with. */
export function seededDirectory(): Directory {
  return {
    apps: [
      { clientId: 'sg-web-app', clientSecret: 'sg-web-secret-0001', name: 'Specgate Web App', callbackUrl: 'http://app.example.test/callback', deviceFlowEnabled: false },
      { clientId: 'sg-device-app', clientSecret: 'sg-device-secret-0002', name: 'Specgate Device App', callbackUrl: 'http://app.example.test/callback', deviceFlowEnabled: true },
      { clientId: 'sg-legacy-app', clientSecret: 'sg-legacy-secret-0003', name: 'Specgate Legacy App', callbackUrl: 'http://legacy.example.test/oauth', deviceFlowEnabled: false },
      { clientId: 'sg-loopback-app', clientSecret: 'sg-loopback-secret-0004', name: 'Specgate Loopback App', callbackUrl: 'http://127.0.0.1/callback', deviceFlowEnabled: false },
      { clientId: 'sg-localhost-app', clientSecret: 'sg-localhost-secret-0005', name: 'Specgate Localhost App', callbackUrl: 'http://localhost/callback', deviceFlowEnabled: false },
      // a native application: its redirect URI is not HTTP, so the account picker shows (B, Endpoints 1 "prompt")
      { clientId: 'sg-native-app', clientSecret: 'sg-native-secret-0006', name: 'Specgate Native App', callbackUrl: 'com.example.specgate:/oauth/callback', deviceFlowEnabled: false },
    ],
    users: [
      { id: 1001, login: 'octo-tester', password: 'correct horse battery staple', name: 'Octo Tester' },
      { id: 1002, login: 'second-tester', password: 'another long passphrase', name: 'Second Tester' },
    ],
  };
}

export function findApp(dir: Directory, clientId: string | undefined): App | undefined {
  return clientId ? dir.apps.find((a) => a.clientId === clientId) : undefined;
}

export function findUser(dir: Directory, login: string | undefined): User | undefined {
  return login ? dir.users.find((u) => u.login === login) : undefined;
}
