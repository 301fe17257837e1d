package net.servicestack.client;

public interface IDeleteDb<Table> {}
