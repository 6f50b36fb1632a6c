process.env.ES_TEST_DB = 'sqlite';
