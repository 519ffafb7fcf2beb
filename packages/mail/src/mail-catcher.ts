/** A real SMTP server for a suite (smtp-server), keeping each message parsed (mailparser) for the test to read. */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface MailCatcher {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  messages: ParsedMail[];
  /** The first message to `to` received after `since` messages, waiting up to 5 s for it. */
  next(to: string, since?: number): Promise<ParsedMail>;
  stop(): Promise<void>;
}

export async function startMailCatcher(): Promise<MailCatcher> {
  const messages: ParsedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          for (const wake of waiters) wake();
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('smtp server has no port');
  const addressedTo = (m: ParsedMail, to: string) =>
    [m.to ?? []].flat().some((a) => a.value.some((v) => v.address?.toLowerCase() === to.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    messages,
    next(to, since = 0) {
      const find = () => messages.slice(since).find((m) => addressedTo(m, to));
      const now = find();
      if (now) return Promise.resolve(now);
      return new Promise<ParsedMail>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`no mail to ${to} within 5 s`));
        }, 5000);
        const wake = () => {
          const found = find();
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(found);
        };
        waiters.add(wake);
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
