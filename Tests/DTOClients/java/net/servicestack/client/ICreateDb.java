package net.servicestack.client;

public interface ICreateDb<Table> {}
