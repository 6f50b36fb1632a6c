process.env.ES_TEST_DB = 'postgres';
