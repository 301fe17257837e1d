package net.servicestack.client;

public interface IUpdateDb<Table> {}
