package net.servicestack.client;

public interface IPatchDb<Table> {}
