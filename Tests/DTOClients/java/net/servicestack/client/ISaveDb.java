package net.servicestack.client;

public interface ISaveDb<Table> {}
