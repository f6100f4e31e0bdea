"""The test suite: folders by module (rules, records, kernel, engine, round, cli, envs, docs,
site/<module>, browser, system); the support code in plugins/."""
