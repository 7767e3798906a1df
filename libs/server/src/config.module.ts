import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { Config } from '@memex/config';

export const CONFIG = Symbol('CONFIG');

/** The configuration parsed once at boot, injectable everywhere as `@Inject(CONFIG)`. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: Config): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: CONFIG, useValue: config }], exports: [CONFIG] };
  }
}
